"""Hand-made definitions and helpers the offline generator's rule tests share."""

from sea.choices import LETTERS
from sea.questions.kinds import CorpusStats
from sea.questions.model import Question

CORPUS = [f"The region held event {i} in 1990." for i in range(100)] + ["The festival of 2024 was held in Lyon."] * 3
DEFINITIONS = [(1, "Sudan", "Sudan, officially the Republic of the Sudan, is a country in Northeast Africa."),
               (2, "Libya", "Libya is a country in the Maghreb region of North Africa."),
               (3, "Africa", "Africa is the world's second-largest and second-most populous continent."),
               (4, "Nile", "The Nile is a major north-flowing river in northeastern Africa."),
               (5, "United States", "The United States of America is a country primarily located in North America."),
               (6, "Netherlands (country)", "The Netherlands is a country in Northwestern Europe."),
               (7, "Canada", "Canada is a country in North America."),
               *[(20 + i, name, f"{name} is a country in Africa.") for i, name in enumerate(("Egypt", "Kenya", "Chad", "Mali", "Ghana"))],
               *[(30 + i, name, f"{name} is a country in {where}.")  # the lands of the golfers' peoples
                 for i, (name, where) in enumerate((("Germany", "Central Europe"), ("Australia", "Oceania"), ("Argentina", "South America"),
                                                    ("Ireland", "Northwestern Europe")))],
               *[(10 + i, name, f"{name} was an English novelist.") for i, name in enumerate(("Ian Fleming", "John Gardner", "Gardner"))],
               *[(100 + 10 * i + j, f"Golfer {i}{j}", f"Golfer {i}{j} was a {people} golfer.")  # peoples the definitions use
                 for i, people in enumerate(("American", "German", "Australian", "Argentine", "Canadian", "Irish")) for j in range(3)]]
PEOPLE = CorpusStats([], latest_year=2024, definitions=DEFINITIONS)


def question_of(text: str, options: list[str], gold: int) -> Question:
    return Question(base_question_id="b", para_id=1, variant=0, question=text, options=options,
                    gold_letter=LETTERS[gold], permutation=[0, 1, 2, 3], statement="", generator="t")


LEADS = {"Weimar Republic": "The Weimar Republic was the German state from 1918 to 1933. It followed the Empire.",
         "George W. Bush": "George Walker Bush is an American politician who was the 43rd president from 2001 to 2009.",
         "Soviet Union": "The Soviet Union was a country from its formation in 1922 until its dissolution in 1991.",
         "Song dynasty": "The Song dynasty was an imperial dynasty of China that ruled from 960 to 1279.",
         "David": "David is a marble statue sculpted from 1501 to 1504 by Michelangelo.",
         "Short Parliament": "The Short Parliament was a Parliament of England that sat from 1640 to 1642.",
         "Iraq War": "The Iraq War was a protracted armed conflict in Iraq from 2003 to 2011."}
