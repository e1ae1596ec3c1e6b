"""The value interpreter: what can an expression be, statically?

Every rule asks this one question through `Interpreter.ev(expr, loc, env)`, which answers with a
*value set*: a frozenset of abstract values, any of which the expression may denote at run time.
`UNKNOWN` in a set means "and possibly something we cannot see".

What is followed
- Names, by the definitions that reach the point of use (the module model's flow-sensitive
  lookup).  A module-level name read inside a top-level function that the module itself calls
  takes the definitions live at those calls (notebook style: `kernel` redefined cell after cell).
- Bindings of every statement form: `a = b = v`, tuple unpacking, `for x in (a, b)` (each element),
  annotated and augmented assignment (`outs += [...]`), walrus, imports (project modules, then
  installed and editable packages of the user's Python environment, read as source through a
  loader, never imported: see `project._ProjectLoader` and `environment`; jax, numpy and the other
  EXTERNAL_ROOTS are modelled, not read; star imports honour `__all__`), `def` with its
  decorators applied, `class`.
- Calls through bounded, memoised return summaries of project functions: arguments are bound to
  parameters (positional, keyword, defaults, `*args` / `**kwargs` when they resolve), a branch
  whose test is a constant in that binding is pruned, and a function's result is the union of its
  returns and, when its body can run off the end, `None`.  Classes make instances; attributes come
  from the class body (methods bind, `staticmethod` / `classmethod` / `property` are honoured) and
  from `self.x = ...` in its methods, evaluated with the constructor's arguments; dataclass
  fields take their constructor arguments; `__call__` makes an instance callable.
- Containers: tuple / list / dict displays, `+`, `.append` / `.extend` on a list in straight-line
  code, constant subscripts (an unknown key gives every element), `.items()` / `.values()`.
- Objects on the heap (`heap.py`): dicts, lists and instances are identified by their allocation
  site, and stores into them anywhere in the program (in functions, decorators, class creation
  hooks, module-level loops; `setattr`, `update`, `setdefault`, `append`) are fields their reads
  see; code run at import is evaluated for them.
- Class machinery: class decorators, `__init_subclass__`, metaclass `__new__` / `__init__`,
  zero-argument `super()`, constructors' bodies (`super().__init__(...)`), `cached_property`,
  `partialmethod`.  Iteration: generators (`yield`, `yield from`), `iter` / `next`, `zip`,
  `enumerate`, `map`, comprehensions and their targets, `a, *rest = xs`, `with x as y`.
- The standard library as Python models (`models/`: operator, collections, contextlib, types,
  itertools), evaluated like the user's code; f-strings of a few constant parts; `globals()`.
- Refs by allocation site (`jax.new_ref(x)` is one object however many names it has), `.at[...]`
  views of them, arrays (jnp / np constructors and anything computed from an array), the Pallas
  entry points, `functools.partial`, and the launches that calling an entry point makes.

Where it gives up (UNKNOWN): calls past `MAX_CALL_DEPTH`, recursion, values from modules it
cannot read (not found, compiled only, stubs only) that are not known APIs, attributes of unknown
objects.

Precision policy: "may" for which functions are kernels (any function in the set), "must" for what
a finding asserts (a set without UNKNOWN whose every member has the property).

Where things are (each module's docstring says more)
- `interpreter.py`: `Interpreter` (one per analysis of a module version: its caches, the hooks the
  launch finder sets) and the evaluation of expressions: `ev(expr, loc, env)`.
- `domain.py`: the abstract values (`Func`, `Class`, `Instance`, `DictV`, `Seq`, `Ref`, `Array`,
  ...), environments, budgets, and small pure helpers on value sets (`only_value`, `shape_of`).
- `bindings.py`: what a name is bound to: reaching definitions, parameters, imports and module
  attributes, statements run for their effects (`run_statement`).
- `flow.py`: control flow: which definitions reach a read (branches a constant decides, `match`
  cases, except blocks that never run, loops per element and their continue / break filters),
  iterators advanced by `next` before it.
- `mutations.py`: objects bound to a name and changed in place before a read (list appends and
  pops, dict item stores and deletions, an attribute stored after construction).
- `reshaping.py`: a list reshaped in place by `del xs[i:j]` / `xs[i:j] = seq` with constant indexes.
- `json_data.py`: `json.loads` of a constant string, as values.
- `default_lists.py`: a function's default list (`def add(fn, acc=[])`) as the module's calls left it.
- `operations.py`: Python's operations on values: attribute access (MRO, descriptors, `super()`),
  subscripts, iteration, `with`.
- `instances.py`: an instance's attributes: what its class's methods store on `self` (the
  `__init__` it runs hides a class attribute it surely stores), then its class's.
- `simple_loops.py`: a `while` or `for` loop that only rebinds names (under `if`s), run round by
  round while its tests are decided (`while M % bm: bm //= 2`; `for cls, f in registry.items(): if
  isinstance(arg, cls): chosen = f`).
- `classes.py`: making functions and classes: decorators, class decorators, metaclasses,
  `__init_subclass__`, `super()` objects, `dataclasses.replace`.
- `calls.py`: calls of values: argument binding, return summaries, `functools.partial`.
- `construction.py`: calling a class: a metaclass's `__call__`, `__new__`, `__init__` run on the new
  instance, a dataclass's fields.
- `returns.py`: which of a function's returns can run for a calling context (branches decided,
  statements after a sure return, loop blocks that never run, `match` cases, first-match loops).
- `library.py`: what is not read as source: builtins, JAX, NumPy and the standard library modelled
  natively (tables of APIs, the calls that make Refs, shape structs, None, copies of containers).
- `ref_identity.py`: which Ref objects the program makes: a constructor run again (another call,
  a loop, another instance, a defaultdict's missing key) makes a new one, tagged by that run.
- `folding.py`: constant folding: arithmetic and comparisons of known values (dtypes and enum
  members included), pure functions of constants (`divmod`, `math.log2`, `pl.cdiv`, `any`, `sum`),
  numpy's dtype questions (`np.dtype`, `jnp.issubdtype`).
- `enums.py`: enum classes' members, in body order, by name and by value.
- `arrays.py`: the arrays jax / numpy calls, array methods and arithmetic make, with their shapes
  and dtypes when the call says them; `jax.eval_shape`'s ShapeDtypeStructs.
- `typetests.py`: `isinstance` / `issubclass`, decided when the types are known.
- `generators.py`: what a generator yields (in order through a straight body), each call's run
  making its own Refs.
- `iteration.py`: builtins over sequences (`iter`, `next`, `zip`, `sorted`, `min` / `max`, `dict(pairs)`,
  `functools.reduce`, `jax.tree.map`): known sequences stay known.
- `methods.py`: values that are methods of other values (Ref, array, list, dict and string
  methods, `prop.setter`, `cls.__subclasses__`) and namedtuple classes.
- `heap.py`: the abstract heap: stores into objects anywhere in the program, evaluated where
  their functions ran; `store_sites.py` finds those stores by syntax.
- The order of stores, where the heap's join would be a wrong value: `instance_changes.py` (an
  instance as the straight-line code after its construction leaves it: `op.configure("copy")`),
  `registrations.py` (a module-level list or dict filled by registrar calls, in order),
  `imported_globals.py` (a module's global its own functions store, read from another module
  after a call), and `import_order.py`, which walks the modules that run before a read in the
  order Python runs them, for the first two across modules.
- `models/`: the standard library as Python source the interpreter evaluates.

The operations are functions of the interpreter (`operations.attribute(interp, value, "x", model)`);
modules of this package import each other as modules (`from . import calls`), since they call each
other, and import `domain` by name.
"""
