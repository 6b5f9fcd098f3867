"""The Assistive Devices Program: load the ministry's ADP manuals (PDF), answer ``adp.get``.

Layout::

    parse.py        a manual's outline, numbered sections and paragraphs with their pages
    data.py         the project's rule files (funding_rules.toml, devices.toml, cep_policy.toml)
                    and their check against the parsed manuals
    store.py        the adp_* tables (migration 5): one swap per load; a per-thread reader
    passages.py     the manuals as passages in the ``adp`` search namespace
    load.py         parse → check → swap → index (``curbside coverage load``)
    query.py        reading a request: topics, social assistance, income, which device
    sql_path.py     the rules that apply to the device, from the tables
    search_path.py  the passages for the request
    merge.py        one ``AdpGetResult`` (fallback.py when the tables could not be read)
    service.py      ``AdpService``: both paths concurrently, each with its own timeout
    tool.py         the argument and result models of ``adp.get``
    status.py       what is loaded (``curbside coverage status``)
"""
