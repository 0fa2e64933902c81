"""The law: the shared vocabulary, the clause registries, the predicate schema and the files they live in."""
