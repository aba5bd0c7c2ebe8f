"""Model access for every role (generator, testee, verifier): providers, limits, retries,
a response cache, a cost ledger and a hard budget."""
