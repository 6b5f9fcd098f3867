"""Ontario coverage data and tools: the ODB drug formulary now; OHIP and ADP next (#6).

Layout::

    loading.py      one ``curbside coverage load DIR`` dispatching to per-source loaders
    confidence.py   the shared confidence formula (dual SQL + search evidence)
    conflicts.py    the shared SQL-versus-passage conflict record
    odb/            parse → store → passages (load) and the ``odb.get`` tool

Each source keeps its structured rows in its own SQLite tables (migrations in
``curbside.store.migrations``) and its passages in its own search namespace,
so coverage text never mixes into general ``ask`` results unless asked for.
"""
