"""The relation DAG: how failures lead to each other.

Nodes are evaluated paragraphs (with the step that evaluated them and their error rate); an edge
runs from each source that retrieved a paragraph to that paragraph. Sources are evaluated at an
earlier step than anything they retrieve, so edges always point forward in time and the graph
stays acyclic."""

from __future__ import annotations

import networkx as nx


class RelationDAG:
    def __init__(self) -> None:
        self.graph = nx.DiGraph()

    def add_evaluated(self, step: int, error_rates: dict[int, float], retrieved_by: dict[int, set[int]]) -> None:
        """Record a step's evaluated paragraphs and the edges from the sources that retrieved them."""
        for para_id, rate in error_rates.items():
            self.graph.add_node(para_id, step=step, error_rate=rate)
            for source in retrieved_by.get(para_id, ()):
                if self.graph.nodes[source]["step"] >= step:
                    raise ValueError(f"edge {source} -> {para_id} would not point forward in time")
                self.graph.add_edge(source, para_id)

    def descendant_error(self, para_id: int) -> float | None:
        """Mean error rate over every paragraph reachable from para_id; None without descendants."""
        descendants = nx.descendants(self.graph, para_id)
        if not descendants:
            return None
        return sum(self.graph.nodes[d]["error_rate"] for d in descendants) / len(descendants)

    def to_json(self) -> dict:
        return nx.node_link_data(self.graph, edges="edges")

    @classmethod
    def from_json(cls, data: dict) -> RelationDAG:
        dag = cls()
        dag.graph = nx.node_link_graph(data, directed=True, edges="edges")
        return dag


def prune(dag: RelationDAG, active_sources: set[int], gamma: float) -> set[int]:
    """The active sources whose descendants' mean error rate fell below gamma. A source with
    no descendants yet stays active."""
    pruned = set()
    for source in active_sources:
        score = dag.descendant_error(source)
        if score is not None and score < gamma:
            pruned.add(source)
    return pruned
