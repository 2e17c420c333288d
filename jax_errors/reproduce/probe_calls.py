"""The calls a probe makes: each public function of jax, called with argument values that jax may refuse.

A call is written as the Python a user would type (`jax.lax.reshape(jnp.ones((3,)), -1)`), so that
what a probe finds is a snippet that runs as shown. The arguments come from one pool of values
(arrays of several shapes and dtypes, numbers, strings, tuples, functions, dtypes, sharding
objects) and are varied one at a time around a first call that runs clean, so that a refusal points
at the one argument that changed. Each such call is also made under `jax.jit`, where its arguments
are traced. A function that returns a function (`jax.vmap`, `jax.grad`) is given a few arrays too:
most of what such a transform refuses, it refuses when the function it made is called. The methods
of `jax.Array` are called on an array, and indexing is `x[...]` and `x.at[...].set(...)`.

Standard library only: the probe worker imports it where jax runs.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

# Each value as it is written in a call. Arrays first: they are what most functions take first.
ARRAYS = (
    "jnp.ones((3,))", "jnp.ones((2, 3))", "jnp.ones((3, 3))", "jnp.ones((2, 3, 4))", "jnp.ones((2, 2, 2, 2))",
    "jnp.float32(1.5)", "jnp.arange(3)", "jnp.ones((3,), bool)", "jnp.ones((3,), jnp.complex64)",
    "jnp.ones((0,))", "jnp.ones((3,), jnp.uint8)", "jnp.ones((3,), jnp.int8)", "jnp.ones((3,), jnp.bfloat16)",
    "jnp.ones((3,), jnp.float16)", "jax.random.key(0)", "np.ones(3)", "[jnp.ones((3,)), jnp.ones((2,))]",
    "jax.new_ref(jnp.ones((3,)))", "jax.experimental.sparse.BCOO.fromdense(jnp.ones((2, 3)))",
)
OTHERS = (
    "0", "-1", "2", "2**40", "1.5", "True", "None", "'x'", "(2, 3)", "(-1,)", "(0, 1)", "()", "[1, 2]", "1j",
    "{'a': 1}", "lambda x: x", "lambda x: x.sum()", "jnp.float32", "'float32'", "slice(None)",
    "jax.ShapeDtypeStruct((3,), jnp.float32)", "jax.P('x')", "jax.make_mesh((8,), ('x',))", "(0, 0)",
    "'b, 2*b'",
)
POOL = ARRAYS + OTHERS
# What indexing is tried with, besides the pool.
INDICES = POOL + ("(0, 0, 0)", "(..., ...)", "(None, 'x')", "jnp.array([True, False])", "slice(0, 2, 0)",
                  "jnp.ones((2, 3)) > 0", "(jnp.arange(2), slice(None), 0)")
# The values tried first when looking for a call that runs clean.
LIKELY = ("jnp.ones((3,))", "jnp.ones((3, 3))", "0", "2", "jnp.arange(3)", "(2, 3)", "lambda x: x.sum()",
          "jnp.float32")
# Arrays a returned function is called with.
CALLED_WITH = ("jnp.ones((3,))", "jnp.ones((2, 3))", "jnp.float32(1.5)", "jnp.arange(3)", "0")
MESH_SETUP = ("import os", 'os.environ["JAX_PLATFORMS"] = "cpu"',
              'os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"')
IMPORTS = (("jnp.", "import jax.numpy as jnp"), ("np.", "import numpy as np"),
           ("jax.experimental.sparse.", "import jax.experimental.sparse"))
# The objects whose methods are called, by the prefix their methods are filed under (`jax.Array.reshape`).
RECEIVERS = {"jax.Array.": "jnp.ones((2, 3))", "jax.Ref.": "jax.new_ref(jnp.ones((2, 3)))",
             "jax.experimental.sparse.BCOO.": "jax.experimental.sparse.BCOO.fromdense(jnp.ones((2, 3)))"}
# What is probed of each receiver besides its methods: indexing, `.at[...].set(...)` and assignment.
GETITEM, AT_SET, SETITEM = "__getitem__", "at", "__setitem__"
INDEXING = {"jax.Array.": (GETITEM, AT_SET, SETITEM), "jax.Ref.": (GETITEM, SETITEM),
            "jax.experimental.sparse.BCOO.": (GETITEM,)}
# Collectives are called where their axis name is bound: in a shard_map over 8 devices, or a named vmap.
CONTEXTS = {
    "shard_map": ("jax.shard_map(lambda v: {call}, mesh=jax.make_mesh((8,), ('x',)), in_specs=jax.P('x'), "
                  "out_specs=jax.P('x'))(jnp.ones((8, 3)))"),
    "vmap": "jax.vmap(lambda v: {call}, axis_name='x')(jnp.ones((2, 3)))",
}
AXIS_PARAMETERS = ("axis_name", "axis_names")
CONTEXT_LIKELY = ("'x'", "0", "('x',)", "jnp.ones((3,))")

MAX_REQUIRED = 4  # functions needing more positional arguments are called with their first few varied only
MAX_KEYWORDS = 10  # keyword arguments varied, in the order of the signature
SEARCH = 200  # calls tried at most to find one that runs clean


@dataclass(frozen=True)
class Call:
    """One call: the function's dotted name, its arguments as written, and how the call is made.

    `jit`: the function is called through `jax.jit`; `then`: the function it returns is called with these;
    `attribute`: a property of `jax.Array`, read; `context`: where it is called (see CONTEXTS).
    """

    function: str
    args: tuple[str, ...] = ()
    kwargs: tuple[tuple[str, str], ...] = ()
    then: tuple[str, ...] | None = None
    jit: bool = False
    attribute: bool = False  # a property of the receiver, read rather than called
    context: str | None = None  # a key of CONTEXTS: called there, its first argument the traced `v`

    @property
    def receiver(self) -> str | None:
        """The prefix of a method's receiver (`jax.Array.`), None for a function."""
        return next((prefix for prefix in RECEIVERS if self.function.startswith(prefix)), None)

    @property
    def callee(self) -> str:
        """The function as written: a method is looked up on its receiver."""
        prefix = self.receiver
        return f"{RECEIVERS[prefix]}.{self.function.removeprefix(prefix)}" if prefix else self.function

    @property
    def statement(self) -> bool:
        """Whether the call is written as a statement (an assignment), not an expression."""
        return self.receiver is not None and self.function.removeprefix(self.receiver) == SETITEM

    @property
    def text(self) -> str:
        """The call as written."""
        return self.render(str)

    def render(self, value: Callable[[str], str]) -> str:
        """The call, each value and the function (`callee`, or a receiver for indexing) written as `value` says.

        `text` writes them as they are; the probe worker writes each as a name bound to what that
        text evaluated to, once per function, so that every call of one function shares its values
        (and jax's caches, which key on the function object, hold).
        """
        prefix = self.receiver
        member = self.function.removeprefix(prefix) if prefix else None
        if self.attribute:
            return f"{value(RECEIVERS[prefix])}.{member}"
        if member == GETITEM:
            return f"{value(RECEIVERS[prefix])}[{value(self.args[0])}]"
        if member == AT_SET:
            return f"{value(RECEIVERS[prefix])}.at[{value(self.args[0])}].set({value(self.args[1])})"
        if member == SETITEM:
            return f"{value(RECEIVERS[prefix])}[{value(self.args[0])}] = {value(self.args[1])}"
        callee = value(self.callee)
        inner = ", ".join([*map(value, self.args), *(f"{name}={value(v)}" for name, v in self.kwargs)])
        call = f"jax.jit({callee})({inner})" if self.jit else f"{callee}({inner})"
        if self.context:
            call = CONTEXTS[self.context].format(call=call)
        return call if self.then is None else f"{call}({', '.join(map(value, self.then))})"

    def snippet(self, imported: frozenset[str] = frozenset()) -> str:
        """The call as a program that runs as it stands: the imports it needs, then the call.

        `imported`: the modules `import jax` imports by itself; the function's own module is imported
        when it is not one of them.
        """
        text = self.text
        module = self.function.rpartition(".")[0]
        # A mesh of 8 devices needs them made before jax starts: 8 CPU devices, as the probe had.
        devices = [*MESH_SETUP, ""] if any(name in text for name in ("make_mesh", "shard_map")) else []
        imports = [*devices, "import jax", *(line for prefix, line in IMPORTS if _uses(text, prefix))]
        if not self.receiver and module != "jax" and module not in imported and f"import {module}" not in imports:
            imports.append(f"import {module}")
        return "\n".join(imports) + "\n\n" + text + "\n"


def _uses(text: str, prefix: str) -> bool:
    """Whether `text` names something through `prefix` (`jnp.`), not as the end of a longer name."""
    start = text.find(prefix)
    while start != -1:
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] in "._"):
            return True
        start = text.find(prefix, start + 1)
    return False


def make_calls(name: str, function: Callable | None, make: Callable[[Call], bool]) -> int:
    """Make the calls of one function, each varying one argument of a call that runs clean; how many.

    `make(call)` makes one call and says whether it ran clean (raised nothing). `function` None:
    `name` is a property of `jax.Array`, only read.
    """
    if function is None:
        return _made([Call(name, attribute=True)], make)
    member = next((name.removeprefix(p) for p in RECEIVERS if name.startswith(p)), None)
    if member == GETITEM:
        return _made([Call(name, (index,)) for index in INDICES], make)
    if member in (AT_SET, SETITEM):
        return _made([*(Call(name, (index, "2")) for index in INDICES),
                      *(Call(name, ("0", value)) for value in POOL)], make)
    required, keywords, collective = _parameters(function)
    made = 0
    if collective:
        made += _in_contexts(name, required, keywords, make)
    searched, base = _search(name, (), len(required), LIKELY, "jnp.ones((3,))", make)
    varied = list(_varied(base, POOL))
    later = [*varied, *_keyworded(base, keywords, POOL)]
    if required:
        later.append(Call(name, base.args[:-1]))  # one argument too few
    if not inspect.isclass(function):  # traced: what needs a concrete value refuses a tracer
        later += [Call(name, call.args, jit=True) for call in [base, *varied]]
    return made + searched + _made(later, make)


def _made(calls: list[Call], make: Callable[[Call], bool]) -> int:
    for call in calls:
        make(call)
    return len(calls)


def _in_contexts(name: str, required: list[str], keywords: list[str], make: Callable[[Call], bool]) -> int:
    """Calls of a collective inside each context, its first argument the traced value there."""
    made = 0
    values = (*POOL, "'y'")  # and an axis name no context binds
    for context in CONTEXTS:
        searched, base = _search(name, ("v",), max(len(required) - 1, 0), CONTEXT_LIKELY, CONTEXT_LIKELY[0], make,
                                 context=context)
        made += searched + _made([*_varied(base, values, start=1), *_keyworded(base, keywords, values)], make)
    return made


def _search(name: str, fixed: tuple[str, ...], count: int, likely: tuple[str, ...], fallback: str,
            make: Callable[[Call], bool], *, context: str | None = None) -> tuple[int, Call]:
    """How many calls it took to find one that runs clean (`fixed`, then `count` of `likely`), and that call.

    None runs clean within SEARCH calls: the base is `fixed` then `fallback` each time.
    """
    for made, rest in enumerate(itertools.islice(itertools.product(likely, repeat=count), SEARCH), start=1):
        call = Call(name, (*fixed, *rest), context=context)
        if make(call):
            return made, call
    return min(len(likely) ** count, SEARCH), Call(name, (*fixed, *(fallback,) * count), context=context)


def _parameters(function: Callable) -> tuple[list[str], list[str], bool]:
    """The positional parameters a call must give (the first few), the keyword ones it may, and whether it
    is a collective (it takes an axis name)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: called with one argument
        return ["x"], [], False
    parameters = signature.parameters.values()
    required = [p.name for p in parameters
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = [p.name for p in parameters if p.default is not p.empty
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and not p.name.startswith("_")]
    if not required and any(p.kind is p.VAR_POSITIONAL for p in parameters):
        required = ["x"]
    collective = any(name in AXIS_PARAMETERS for name in signature.parameters)
    return required[:MAX_REQUIRED], keywords[:MAX_KEYWORDS], collective


def _varied(base: Call, values: tuple[str, ...], *, start: int = 0) -> Iterator[Call]:
    """`base` with one argument (from `start` on) replaced by each of `values`, in its context."""
    for position in range(start, len(base.args)):
        for value in values:
            if value != base.args[position]:
                yield replace(base, args=(*base.args[:position], value, *base.args[position + 1:]))


def _keyworded(base: Call, keywords: list[str], values: tuple[str, ...]) -> list[Call]:
    """`base` given one keyword argument, each of `values`, in its context."""
    return [replace(base, kwargs=((keyword, value),)) for keyword in keywords for value in values]


def called_result(call: Call) -> list[Call]:
    """Calls of the function `call` returned, with each of a few values."""
    return [Call(call.function, call.args, call.kwargs, (value,), call.jit, context=call.context)
            for value in CALLED_WITH]
