"""The calls a probe makes: each public function of jax, called with argument values that jax may refuse.

A call is written as the Python a user would type (`jax.lax.reshape(jnp.ones((3,)), -1)`), so that
what a probe finds is a snippet that runs as shown. The arguments come from one pool of values
(arrays of several shapes and dtypes, numbers, strings, tuples, functions, dtypes, sharding
objects) and are varied one at a time around a first call that runs clean, so that a refusal points
at the one argument that changed; a parameter is first given what its name asks for (BY_NAME).
Each such call is also made under `jax.jit`, where its arguments are traced. A function that
returns a function (`jax.vmap`, `jax.grad`) is given a few arrays too: most of what such a
transform refuses, it refuses when the function it made is called. The methods of `jax.Array` are
called on an array and on it traced, and indexing is `x[...]` and `x.at[...].set(...)`. The array
functions are also called with explicitly sharded arrays (SHARDED), which sharding rules check.

Standard library only: the probe worker imports it where jax runs.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

SPARSE = "jax.experimental.sparse.BCOO.fromdense(jnp.ones((2, 3)))"
# Each value as it is written in a call. Arrays first: they are what most functions take first.
ARRAYS = (
    "jnp.ones((3,))", "jnp.ones((2, 3))", "jnp.ones((3, 3))", "jnp.ones((2, 3, 4))", "jnp.ones((2, 2, 2, 2))",
    "jnp.float32(1.5)", "jnp.arange(3)", "jnp.ones((3,), bool)", "jnp.ones((3,), jnp.complex64)",
    "jnp.ones((0,))", "jnp.ones((3,), jnp.uint8)", "jnp.ones((3,), jnp.int8)", "jnp.ones((3,), jnp.bfloat16)",
    "jnp.ones((3,), jnp.float16)", "jax.random.key(0)", "np.ones(3)", "[jnp.ones((3,)), jnp.ones((2,))]",
    "jax.new_ref(jnp.ones((3,)))", SPARSE,
)
OTHERS = (
    "0", "-1", "2", "2**40", "1.5", "True", "None", "'x'", "(2, 3)", "(-1,)", "(0, 1)", "()", "[1, 2]", "1j",
    "{'a': 1}", "lambda x: x", "lambda x: x.sum()", "jnp.float32", "'float32'", "slice(None)",
    "jax.ShapeDtypeStruct((3,), jnp.float32)", "jax.P('x')", "jax.make_mesh((8,), ('x',))", "(0, 0)",
    "'b, 2*b'", "jnp.int32",
)
POOL = ARRAYS + OTHERS
# What a parameter's name asks for: tried first when looking for a call that runs clean, and besides the
# pool when the parameter is varied. Most of what a function refuses it checks only after its other
# arguments passed (a PRNG key, a well-formed `dimension_numbers`).
BY_NAME = {
    "key": ("jax.random.key(0)",),
    "shape": ("(2, 3)",),
    "dtype": ("jnp.float32", "jnp.int32"),
    "preferred_element_type": ("jnp.float32", "jnp.int8", "jnp.float16", "jnp.uint32"),
    "precision": ("'highest'", "jax.lax.DotAlgorithmPreset.BF16_BF16_F32",
                  "jax.lax.DotAlgorithmPreset.ANY_F8_ANY_F8_F32"),
    "dimension_numbers": ("(((1,), (0,)), ((), ()))", "(((0,), (0,)), ((0,), (0,)))",
                          "(((1, 1), (0, 0)), ((), ()))", "(((), ()), ((0, 0), (0, 0)))",
                          "(((), ()), ((0,), ()))", "('NC', 'OI', 'NC')"),
    "axes": ("(0,)", "(0, 0)"),
    "dimensions": ("(0,)", "(1, 0)"),
    "permutation": ("(1, 0)", "(0, 0)"),
    "new_sizes": ("(3, 2)",),
    "start_indices": ("(0, 0)",),
    "limit_indices": ("(1, 2)", "(5, 5)"),
    "broadcast_dimensions": ("(0, 1)",),
    "dimension": ("0",),
    "window_strides": ("(1,)",),
    "padding": ("'SAME'", "((0, 0),)"),
    "method": ("'exact'",),
    "group_sizes": ("jnp.array([1, 2])",),
    "k": ("2",),
    "to": ("'varying'",),
    "sep": ("' '",),
    "callback": ("lambda x: None",),
    "out_sharding": ("jax.P(None, unreduced={'x'})",),
}
# What a module's functions take as their arrays, tried before the pool's first when looking for a clean call.
BY_MODULE = {"jax.experimental.sparse.": (SPARSE,)}
# Names a value may use, and what the snippet defines each as (after its imports).
DEFINITIONS = {
    "explicit_mesh": "jax.make_mesh((2, 4), ('x', 'y'), axis_types=(jax.sharding.AxisType.Explicit,) * 2)",
}
# Arrays whose sharding is part of their type (an explicit mesh): what sharding rules check. A function of
# SHARDED_MODULES is called again with these in every place, varied one place at a time, and its
# SHARDING_KEYWORDS given a partition spec.
SHARDED = tuple(f"jax.device_put(jnp.ones((8, 8)), jax.NamedSharding(explicit_mesh, jax.P({spec})))"
                for spec in ("'x', 'y'", "'y', 'x'", "'x'", "None, 'x'"))
SHARDED_MODULES = ("jax.lax.", "jax.numpy.", "jax.nn.", "jax.random.")
SHARDING_KEYWORDS = ("out_sharding", "sharding", "out_shardings")
SPECS = ("jax.P('x')", "jax.P(None, 'x')", "jax.P('x', 'x')", "jax.P('z')", "jax.P(None, None, unreduced={'x'})")
SHARDED_SEARCH = 16  # calls tried at most to find a clean call with sharded arrays
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
             "jax.experimental.sparse.BCOO.": SPARSE}
# What is probed of each receiver besides its methods: indexing, `.at[...].set(...)` and assignment.
GETITEM, AT_SET, SETITEM = "__getitem__", "at", "__setitem__"
INDEXING = {"jax.Array.": (GETITEM, AT_SET, SETITEM), "jax.Ref.": (GETITEM, SETITEM),
            "jax.experimental.sparse.BCOO.": (GETITEM,)}
# Where a call is made: collectives where their axis name is bound (a shard_map over 8 devices, a named
# vmap), a receiver's methods inside jit.
CONTEXTS = {
    "shard_map": ("jax.shard_map(lambda v: {call}, mesh=jax.make_mesh((8,), ('x',)), in_specs=jax.P('x'), "
                  "out_specs=jax.P('x'))(jnp.ones((8, 3)))"),
    "vmap": "jax.vmap(lambda v: {call}, axis_name='x')(jnp.ones((2, 3)))",
    # a receiver's methods, called on it traced (`v`): what a tracer refuses that an array allows
    "traced": "jax.jit(lambda v: {call})({receiver})",
}
TRACED = "traced"
COLLECTIVE_CONTEXTS = ("shard_map", "vmap")
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
        return receiver_of(self.function)

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
        receiver = value(RECEIVERS[prefix]) if prefix else None
        on = "v" if self.context == TRACED else receiver  # what a method is called on
        if self.attribute:
            call = f"{on}.{member}"
        elif member == GETITEM:
            call = f"{on}[{value(self.args[0])}]"
        elif member == AT_SET:
            call = f"{on}.at[{value(self.args[0])}].set({value(self.args[1])})"
        elif member == SETITEM:
            return f"{on}[{value(self.args[0])}] = {value(self.args[1])}"
        else:
            callee = f"v.{member}" if self.context == TRACED else value(self.callee)
            inner = ", ".join([*map(value, self.args), *(f"{name}={value(v)}" for name, v in self.kwargs)])
            call = f"jax.jit({callee})({inner})" if self.jit else f"{callee}({inner})"
        if self.context:
            call = CONTEXTS[self.context].format(call=call, receiver=receiver)
        return call if self.then is None else f"{call}({', '.join(map(value, self.then))})"

    def snippet(self, imported: frozenset[str] = frozenset()) -> str:
        """The call as a program that runs as it stands: the imports it needs, then the call.

        `imported`: the modules `import jax` imports by itself; the function's own module is imported
        when it is not one of them.
        """
        text = self.text
        module = self.function.rpartition(".")[0]
        # A mesh of 8 devices needs them made before jax starts: 8 CPU devices, as the probe had.
        defined = [f"{name} = {value}" for name, value in DEFINITIONS.items() if _uses(text, name)]
        uses_mesh = any(name in text for name in ("make_mesh", "shard_map")) or defined
        devices = [*MESH_SETUP, ""] if uses_mesh else []
        imports = [*devices, "import jax", *(line for prefix, line in IMPORTS if _uses(text, prefix))]
        if not self.receiver and module != "jax" and module not in imported and f"import {module}" not in imports:
            imports.append(f"import {module}")
        return "\n".join(imports) + "\n\n" + "".join(f"{line}\n" for line in defined) + text + "\n"


def receiver_of(name: str) -> str | None:
    """The prefix of the receiver a method's name is filed under (`jax.Array.`), None for a function's name."""
    return next((prefix for prefix in RECEIVERS if name.startswith(prefix)), None)


def shortness(call: str) -> tuple[int, str]:
    """What orders the calls that raised one error: the shortest first, then by text (a probe keeps the first)."""
    return len(call), call


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
        return _made([Call(name, attribute=True), Call(name, attribute=True, context=TRACED)], make)
    prefix = receiver_of(name)
    member = name.removeprefix(prefix) if prefix else None
    if member == GETITEM:
        calls = [Call(name, (index,)) for index in INDICES]
        return _made([*calls, *_traced(calls)], make)
    if member in (AT_SET, SETITEM):
        calls = [*(Call(name, (index, "2")) for index in INDICES), *(Call(name, ("0", value)) for value in POOL)]
        return _made([*calls, *_traced(calls)] if member == AT_SET else calls, make)
    parameters = _parameters(function)
    made = 0
    if parameters.collective:
        made += _in_contexts(name, parameters, make)
    if name.startswith(SHARDED_MODULES) and parameters.required:
        made += _sharded(name, parameters, make)
    module = () if member else next((values for prefix, values in BY_MODULE.items() if name.startswith(prefix)), ())
    searched, base = _search(name, (), parameters, _candidates(LIKELY, module), make)
    varied = list(_varied(base, parameters, POOL))
    later = [*varied, *_keyworded(base, parameters.keywords, POOL)]
    if parameters.required:
        later.append(replace(base, args=base.args[:-1]))  # one argument too few
    if member:  # a method: called on its receiver traced instead (jit of a bound method crashed workers)
        later += _traced([base, *varied])
    elif not inspect.isclass(function):  # traced: what needs a concrete value refuses a tracer
        later += [replace(call, jit=True) for call in [base, *varied] if not call.kwargs]
    return made + searched + _made(later, make)


def _traced(calls: list[Call]) -> list[Call]:
    """The same calls of a receiver's method, made on the receiver traced."""
    return [replace(call, context=TRACED) for call in calls]


def _made(calls: list[Call], make: Callable[[Call], bool]) -> int:
    for call in calls:
        make(call)
    return len(calls)


def _in_contexts(name: str, parameters: Parameters, make: Callable[[Call], bool]) -> int:
    """Calls of a collective inside each context, its first argument the traced value there."""
    made = 0
    values = (*POOL, "'y'")  # and an axis name no context binds
    inner = replace(parameters, required=parameters.required[1:])  # the first is the context's traced `v`
    for context in COLLECTIVE_CONTEXTS:
        searched, base = _search(name, ("v",), inner, CONTEXT_LIKELY, make, context=context)
        made += searched + _made([*_varied(base, parameters, values, start=1),
                                  *_keyworded(base, parameters.keywords, values)], make)
    return made


def _sharded(name: str, parameters: Parameters, make: Callable[[Call], bool]) -> int:
    """Calls with explicitly sharded arrays: a clean one, then each place given another sharding, and a
    spec for each sharding keyword."""
    searched, base = _search(name, (), parameters, (*SHARDED, *LIKELY), make, limit=SHARDED_SEARCH)
    keywords = tuple(keyword for keyword in parameters.keywords if keyword in SHARDING_KEYWORDS)
    return searched + _made([*_varied(base, parameters, SHARDED), *_keyworded(base, keywords, SPECS)], make)


@dataclass(frozen=True)
class Parameters:
    """What a probe reads of a signature: the positional parameters a call must give (the first few),
    the keyword-only ones it must give, the keyword ones it may, and whether it takes an axis name."""

    required: tuple[str, ...] = ("x",)
    required_keywords: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    collective: bool = False


def _parameters(function: Callable) -> Parameters:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: called with one argument
        return Parameters()
    parameters = signature.parameters.values()
    required = [p.name for p in parameters
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required_keywords = [p.name for p in parameters if p.default is p.empty and p.kind is p.KEYWORD_ONLY]
    keywords = [p.name for p in parameters if p.default is not p.empty
                and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and not p.name.startswith("_")]
    if not required and any(p.kind is p.VAR_POSITIONAL for p in parameters):
        required = ["x"]
    collective = any(name in AXIS_PARAMETERS for name in signature.parameters)
    return Parameters(tuple(required[:MAX_REQUIRED]), tuple(required_keywords), tuple(keywords[:MAX_KEYWORDS]),
                      collective)


def _candidates(values: tuple[str, ...], first: tuple[str, ...] = ()) -> tuple[str, ...]:
    """`first`, then `values`, each once."""
    return tuple(dict.fromkeys((*first, *values)))


def _named(parameter: str | None, values: tuple[str, ...]) -> tuple[str, ...]:
    """What a parameter's name asks for (BY_NAME), then `values`, each once."""
    return _candidates(values, BY_NAME.get(parameter, ()))


def _search(name: str, fixed: tuple[str, ...], parameters: Parameters, likely: tuple[str, ...],
            make: Callable[[Call], bool], *, context: str | None = None, limit: int = SEARCH) -> tuple[int, Call]:
    """How many calls it took to find one that runs clean, and that call: `fixed`, then a value for
    each required parameter, what its name asks for (BY_NAME) before `likely`.

    None runs clean within `limit` calls: the base is each parameter's first candidate.
    """
    slots = (*parameters.required, *parameters.required_keywords)
    choices = [_named(slot, likely) for slot in slots]
    positional = len(parameters.required)

    def call(values: tuple[str, ...]) -> Call:
        return Call(name, (*fixed, *values[:positional]), tuple(zip(parameters.required_keywords, values[positional:])),
                    context=context)

    tried = 0
    for tried, values in enumerate(itertools.islice(itertools.product(*choices), limit), start=1):
        if make(found := call(values)):
            return tried, found
    return tried, call(tuple(options[0] for options in choices))


def _varied(base: Call, parameters: Parameters, values: tuple[str, ...], *, start: int = 0) -> Iterator[Call]:
    """`base` with one argument (positional from `start` on, or a required keyword) replaced by each of
    `values`, and of what the parameter's name asks for, in its context."""
    names = (*(None,) * (len(base.args) - len(parameters.required)), *parameters.required)
    for position in range(start, len(base.args)):
        for value in _named(names[position], values):
            if value != base.args[position]:
                yield replace(base, args=(*base.args[:position], value, *base.args[position + 1:]))
    for position, (keyword, given) in enumerate(base.kwargs):
        for value in _named(keyword, values):
            if value != given:
                yield replace(base, kwargs=(*base.kwargs[:position], (keyword, value), *base.kwargs[position + 1:]))


def _keyworded(base: Call, keywords: tuple[str, ...], values: tuple[str, ...]) -> list[Call]:
    """`base` given one more keyword argument, each of `values` and what its name asks for, in its context."""
    return [replace(base, kwargs=(*base.kwargs, (keyword, value)))
            for keyword in keywords for value in _named(keyword, values)]


def called_result(call: Call) -> list[Call]:
    """Calls of the function `call` returned, with each of a few values."""
    return [replace(call, then=(value,)) for value in CALLED_WITH]
