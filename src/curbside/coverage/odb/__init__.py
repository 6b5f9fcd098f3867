"""The Ontario Drug Benefit formulary: load the ministry's XML extract, answer ``odb.get``.

``load`` (parse → store → passages) fills the tables and the ``odb`` search
namespace; ``tool`` declares ``odb.get``, which ``service.OdbService``
(``core.coverage_service("odb")``) answers from its SQL path and its search path together.
"""
