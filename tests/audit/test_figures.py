"""The run's pictures draw text from data (titles, testee names, categories) as it is written."""

import pandas as pd
import pytest

from sea.audit.figures import category_figure, curve_figure, dag_figure
from sea.search.state import SearchState

PNG_SIGNATURE = b"\x89PNG"
TEXTS_WITH_DOLLARS = [r"$\LaTeX$ foo", "$uicideboy$", "Cost: $5 or $6"]  # unknown mathtext, valid mathtext, plain dollars


def _one_chain() -> SearchState:
    state = SearchState(arm="sea", seed=0, active_sources={1})
    state.dag.add_evaluated(0, {1: 1.0}, {})
    state.dag.add_evaluated(1, {2: 0.5, 3: 0.0}, {2: {1}, 3: {1}})
    return state


@pytest.mark.parametrize("text", TEXTS_WITH_DOLLARS)
def test_a_title_with_dollar_signs_is_drawn_in_the_dag(text):
    assert dag_figure(_one_chain(), text, {1: text, 2: text, 3: text}).startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("text", TEXTS_WITH_DOLLARS)
def test_a_testee_or_category_with_dollar_signs_is_drawn_in_the_curves_and_categories(text):
    curves = pd.DataFrame({"testee": [text, text], "arm": ["sea", "sea"], "cumulative_questions": [10, 20],
                           "cumulative_error_rate": [0.5, 0.25]})
    categories = pd.DataFrame({"category": [text, "History"], "arm": ["sea", "sea"], "mean_error_rate": [0.5, 0.1]})
    assert curve_figure(curves).startswith(PNG_SIGNATURE)
    assert category_figure(categories).startswith(PNG_SIGNATURE)


def test_dollar_signs_in_a_title_are_drawn_not_read_as_mathtext(monkeypatch):
    monkeypatch.setattr("sea.audit.figures.png", lambda figure: figure)  # the figure itself, to measure its labels
    figure = dag_figure(_one_chain(), "sea", {1: "$uicideboy$"})
    label = figure.axes[0].texts[0]
    plain = figure.text(0, 0, "uicideboy", fontsize=label.get_fontsize())
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    dollar_width = plain.get_window_extent(renderer).width / len("uicideboy")
    assert label.get_window_extent(renderer).width > plain.get_window_extent(renderer).width + dollar_width
