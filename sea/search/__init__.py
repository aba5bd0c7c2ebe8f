"""The search core of SEA, free of orchestration: state, retrieval, the relation DAG and pruning."""
