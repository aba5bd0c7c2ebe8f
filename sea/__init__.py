"""SEA (Stochastic Error Ascent): find where a language model gets facts wrong, under a budget."""
