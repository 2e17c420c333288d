"""A raise's guard in plain words: `not x_aval.mat.varying` reads "`x_aval.mat.varying` is false".

The words are built from the condition's syntax tree, so they say exactly what the code says. Code
stays code (`Words` keeps which pieces are code, for the page to mark up); a condition with syntax
this module does not word (a chained comparison, a lambda) gets no words, and the card shows the
code alone.
"""

from __future__ import annotations

import ast
from functools import cache
from typing import NamedTuple


class Piece(NamedTuple):
    """A run of the sentence: plain words, or code to show as code."""

    text: str
    code: bool


Words = tuple[Piece, ...]

_COMPARISONS = {
    ast.Eq: "equals", ast.NotEq: "differs from", ast.Lt: "is less than", ast.LtE: "is at most",
    ast.Gt: "is greater than", ast.GtE: "is at least", ast.In: "is in", ast.NotIn: "is not in",
}
_NEGATED = {
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_MEASURES = {"len": "the length of", "type": "the type of"}
_FLAG_PREFIXES = ("is_", "has_", "should_", "use_", "check_", "allow_", "enable_", "disable_", "can_", "needs_")
MAX_CONDITION_CHARS = 400  # longer conditions read better as code


@cache  # many raises share a guard (`if not isinstance(x, ...)`): word each once
def guard_words(condition: str | None) -> Words | None:
    """The condition as a sentence, or None when it has no plain wording here."""
    if not condition or len(condition) > MAX_CONDITION_CHARS:
        return None
    try:
        tree = ast.parse(condition, mode="eval").body
        return tuple(_merged(_worded(tree, negated=False)))
    except (SyntaxError, _Unworded, RecursionError, ValueError):
        return None


class _Unworded(Exception):
    """Syntax with no plain wording."""


def _worded(node: ast.expr, *, negated: bool, nested: bool = False) -> list[Piece]:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _worded(node.operand, negated=not negated, nested=nested)
    if isinstance(node, ast.BoolOp):
        return _joined(node, negated, nested)
    if isinstance(node, ast.Compare):
        return _compared(node, negated)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        worded = _called(node, negated)
        if worded is not None:
            return worded
    if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
        raise _Unworded
    return _truth(node, negated)


def _joined(node: ast.BoolOp, negated: bool, nested: bool) -> list[Piece]:
    # De Morgan: "not (a and b)" is "a is false, or b is false". A nested `or` says "either", so that
    # "a and (b or c)" does not read as "(a and b) or c".
    conjunction = isinstance(node.op, ast.And) != negated
    count = len(node.values)
    if conjunction:
        pieces = [Piece("both " if count == 2 else "all of: ", False)]
        separators = [" and "] if count == 2 else [", "] * (count - 2) + [", and "]
    else:
        pieces = [Piece("either ", False)] if nested else []
        separators = [" or " if nested and count == 2 else ", or "] * (count - 1)
    for i, value in enumerate(node.values):
        if i:
            pieces.append(Piece(separators[i - 1], False))
        pieces += _worded(value, negated=negated, nested=True)
    return pieces


def _compared(node: ast.Compare, negated: bool) -> list[Piece]:
    if len(node.ops) != 1:
        raise _Unworded  # `a < b < c`
    [op], [right] = node.ops, node.comparators
    if isinstance(op, (ast.Is, ast.IsNot)):
        is_not = isinstance(op, ast.IsNot) != negated
        return [*_operand(node.left), Piece(" is not " if is_not else " is ", False), *_operand(right)]
    kind = _NEGATED[type(op)] if negated else type(op)
    return [*_operand(node.left), Piece(f" {_COMPARISONS[kind]} ", False), *_operand(right)]


def _called(node: ast.Call, negated: bool) -> list[Piece] | None:
    name, args = node.func.id, node.args  # type: ignore[attr-defined]
    if node.keywords or any(isinstance(a, ast.Starred) for a in args):
        return None
    if name == "isinstance" and len(args) == 2:
        classes = args[1].elts if isinstance(args[1], ast.Tuple) else [args[1]]
        pieces = [_code(args[0]), Piece(" is not" if negated else " is", False)]
        for i, cls in enumerate(classes):
            joint = "" if not i else " nor" if negated else " or"
            pieces += [Piece(f"{joint} {_article(cls)} ", False), _code(cls)]
        return pieces
    if name == "hasattr" and len(args) == 2 and isinstance(args[1], ast.Constant):
        return [_code(args[0]), Piece(" has no attribute " if negated else " has an attribute ", False),
                Piece(str(args[1].value), True)]
    if name == "callable" and len(args) == 1:
        return [_code(args[0]), Piece(" is not callable" if negated else " is callable", False)]
    if name in ("any", "all") and len(args) == 1:
        if isinstance(args[0], ast.GeneratorExp):
            return _quantified(name, args[0], negated)
        quantifier = {("any", False): "some item of ", ("any", True): "no item of ",
                      ("all", False): "every item of ", ("all", True): "not every item of "}[name, negated]
        return [Piece(quantifier, False), _code(args[0]), Piece(" is true", False)]
    return None


def _quantified(name: str, generator: ast.GeneratorExp, negated: bool) -> list[Piece] | None:
    """`any(p(x) for x in xs)` as "for some `x` in `xs`, …"; `not any` is "for every …, not …"."""
    if len(generator.generators) != 1 or generator.generators[0].ifs or generator.generators[0].is_async:
        return None
    loop = generator.generators[0]
    some = (name == "any") != negated
    return [Piece("for some " if some else "for every ", False), _code(loop.target), Piece(" in ", False),
            _code(loop.iter), Piece(", ", False), *_worded(generator.elt, negated=negated)]


def _truth(node: ast.expr, negated: bool) -> list[Piece]:
    """A value tested for truth: a flag is true or false; other values may also be empty."""
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    flag = name.startswith(_FLAG_PREFIXES) or isinstance(node, ast.Call)
    return [_code(node), Piece(" is false" if negated and flag else " is false or empty" if negated else " is true",
                               False)]


def _article(cls: ast.expr) -> str:
    name = ast.unparse(cls).rpartition(".")[2].lstrip("_")
    return "an" if name[:1].lower() in "aeiou" and name else "a"


def _operand(node: ast.expr) -> list[Piece]:
    """`len(x)` as "the length of `x`"; anything else as code."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MEASURES
            and len(node.args) == 1 and not node.keywords):
        return [Piece(_MEASURES[node.func.id] + " ", False), _code(node.args[0])]
    return [_code(node)]


def _code(node: ast.expr) -> Piece:
    return Piece(ast.unparse(node), True)


def _merged(pieces: list[Piece]) -> list[Piece]:
    merged: list[Piece] = []
    for piece in pieces:
        if merged and not piece.code and not merged[-1].code:
            merged[-1] = Piece(merged[-1].text + piece.text, False)
        else:
            merged.append(piece)
    return merged
