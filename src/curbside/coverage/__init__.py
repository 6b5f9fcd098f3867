"""Ontario coverage data and tools: the ODB drug formulary, the OHIP Schedule of Benefits, the ADP manuals.

Layout::

    odb/ ohip/ adp/    one source each: parse, store, passages, load, query, the two paths, merge, tool
    answer/            ``coverage.answer``: routes a question to the tools above and merges their answers
    loading.py         one ``curbside coverage load DIR`` dispatching to per-source loaders
    source_load.py     what every loader shares: file patterns, hashes, superseding, passage ingest
    edition_load.py    the load of a source that comes as one file per edition (ODB, OHIP)
    reader.py          per-thread read-only connections for the SQL paths, and stopping their queries
    paths.py           a tool's SQL and search paths side by side, with their timeouts and trace
    source_service.py  the base of every source's service (``core.coverage_service(name)``): reader, search, lifetime
    passages.py        what the sources' passages share: stored Markdown, key slugs, snippets
    status.py          ``curbside coverage status``: every source in one shape
    confidence.py      the shared confidence formula (dual SQL + search evidence)
    conflicts.py       the shared SQL-versus-passage conflict record

Each source keeps its structured rows in its own SQLite tables (migrations in
``curbside.store.migrations``) and its passages in its own search namespace,
so coverage text never mixes into general ``ask`` results unless asked for.
"""
