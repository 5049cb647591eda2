"""`idiom check` for continuous integration: translation units from paths or a compilation
database, findings with stable fingerprints, text/JSON/SARIF reports, baselines and a
per-unit result cache. The analysis itself (`ci.analyse`) is imported only on a cache miss."""
