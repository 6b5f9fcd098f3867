"""The patient's chart over FHIR R4; ``sandbox/`` starts a local FHIR server to try it on."""
