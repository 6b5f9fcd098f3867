"""The one outbound HTTP client the tool families share (DESIGN.md, services layer).

Every request to an outside service (PubMed, Europe PMC, ClinicalTrials.gov, openFDA, NCBI
Bookshelf, a configured search or evidence service) goes through ``OutboundClient``: its query
text is screened for PHI first (a query holding PHI is refused, never sent), then it waits its
turn under the host's published rate limit, is answered from the cache when it can be, and
is retried with backoff on 429 / 5xx (honouring ``Retry-After``); a host that keeps failing is
skipped for a while (circuit breaker). Failures reach the caller as ``UpstreamError`` /
``RateLimitedError`` with a message naming the service and the setting to change.
"""

from curbside.tools.outbound.client import Fetched, OutboundClient, OutboundStats, Service
from curbside.tools.outbound.screen import PhiScreen, Screened

__all__ = ["Fetched", "OutboundClient", "OutboundStats", "PhiScreen", "Screened", "Service"]
