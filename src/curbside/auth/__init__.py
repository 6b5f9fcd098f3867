"""Authentication, roles and rate limits (issue #4).

API keys are issued by ``curbside users add NAME --role clinician|admin|auditor``
and stored as SHA-256 digests; ``UserStore.authenticate`` maps a key to its user.
``roles`` holds who may reach what; ``RateLimiter`` counts requests per user (and
tool calls per user and tool) in moving windows through the ``limits`` library.
"""

from curbside.auth.access import operator_caller
from curbside.auth.ratelimit import RateLimiter
from curbside.auth.roles import ADMIN, AUDIT, CLINICAL, OPERATOR, ROLES, Role, parse_role, role_allows
from curbside.auth.users import ApiUser, NewKey, UserStore

__all__ = [
    "ADMIN",
    "AUDIT",
    "CLINICAL",
    "OPERATOR",
    "ROLES",
    "ApiUser",
    "NewKey",
    "RateLimiter",
    "Role",
    "UserStore",
    "operator_caller",
    "parse_role",
    "role_allows",
]
