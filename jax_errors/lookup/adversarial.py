"""Messages crafted from a template's own words: the worst input a backtracking matcher can get.

A template's regex once had a lazy `.*?` per placeholder between literal words, so a message
repeating those words (and then failing at its end) made the regex engine try every way of
dividing it: a 186-character message took 6 s, doubling with each repetition. Lookup takes
untrusted text, so the tests and `bench/` feed it these messages for every template.
"""

from __future__ import annotations

from jax_errors.template import Template

REPETITIONS = 8
# Ends every crafted message, so that no template matches it in full and a matcher tries everything.
FAILING_TAIL = " \u2603"


def adversarial_messages(template: Template, repetitions: int = REPETITIONS) -> list[str]:
    """Two messages against `template`: its literal text repeated whole, and each literal stretch repeated in place."""
    stretches = [" ".join(p.text.split()) for p in template.parts if p.kind == "lit" and p.text.strip()]
    if not stretches:
        return []
    whole = " ".join(stretches)
    return [
        " ".join([whole] * repetitions) + FAILING_TAIL,
        " ".join(" ".join([s] * repetitions) for s in stretches) + FAILING_TAIL,
    ]
