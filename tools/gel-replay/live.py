"""Runs Gel's test methods themselves against svc: the tests extract.py cannot follow.

extract.py reads test methods as data; a method that computes its queries or checks results in
Python (`res = await self.con.query(...)`, `self.assertEqual(len(res), 3)`, expectations built
from earlier results) is "not extracted". This driver runs such methods as Python, with small
stand-ins for the modules they import (Gel's test base, its client library's error classes and
`edb.tools.test` decorators): every query and every result check is sent to the replay runner
(replay.ts), which owns the database, the transaction and the comparison rules (gel-shape.ts).

Protocol (one JSON object per line; requests on stdout, answers on stdin):
  -> {"op": "query", "query", "variables", "client"?}         <- {"data": [...]} | {"error": {...}}
     ("client": {"globals": {...}}: a second client's request, under its own session state)
  -> {"op": "ddl", "query"}                                   <- {} | {"error": {...}}
  -> {"op": "assert", "query", "expected", "sort", "implicitLimit", "variables"}
                                                              <- {"difference": str | null} | {"error"}
  -> {"op": "shape", "data", "expected"}                      <- {"difference": str | null}
  <- {"op": "run", "test": name}        (from the runner: run one method)
  -> {"op": "done", "test", "status": "pass" | "fail", "failure", "detail", "messageDiffers",
      "assertions": {"reached", "passed"}}
The assertions are the method's `assert_query_result` calls and `assertRaises*` blocks as they
run (one inside a block is the block's): those reached, and those of them that passed.
The driver reads the test file as Python (it is imported, unlike in extract.py) with Gel's
checkout only on the path for the stand-ins' data (the error class hierarchy is read from
edb/errors/__init__.py with `ast`); nothing of Gel's server or client is imported.
"""
import __future__
import argparse
import ast
import asyncio
import contextlib
import dataclasses
import datetime
import importlib.util
import base64
import json
import keyword
import re
import sys
import types
import unittest

from expectations import Bag, MultiRange, Range, tagged, variable

PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr  # the test module's prints must not reach the protocol stream


def ask(message):
    PROTOCOL_OUT.write(json.dumps(message, default=str) + '\n')
    PROTOCOL_OUT.flush()
    line = sys.stdin.readline()
    if not line:
        raise SystemExit(0)
    return json.loads(line)


# --- values -----------------------------------------------------------------------------------

class Record(dict):
    """A result object: `o.name` and `o['name']` both read a field (Gel's client objects)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class OneObject(list):
    """A single link selected with a sub-shape: `[obj]` in svc, `obj` in Gel's client (the
    comparison rule 1 of gel-shape.ts, for code that reads `res.link.name`): attributes a list
    does not have read the one object's."""

    def __getattr__(self, name):
        if len(self) == 1 and isinstance(self[0], Record):
            return getattr(self[0], name)
        raise AttributeError(name)


UUID = re.compile(r'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', re.I)


class IdRef(str):
    """A link selected without a sub-shape: the id string in svc, an object with `id` in Gel's
    client (the comparison rule 2 of gel-shape.ts, for code that reads `.id`)."""

    @property
    def id(self):
        return str(self)


RECORD_TYPES = {}


def record_of(fields):
    """A result object with these fields. Gel's client objects are dataclass instances
    (`dataclasses.asdict(obj)` gives their fields): each set of field names gets a Record
    subclass that is a dataclass of them (fields read through the dict, no class defaults).
    Names that cannot be dataclass fields (`@note`) leave a plain Record."""
    keys = tuple(fields)
    cls = RECORD_TYPES.get(keys)
    if cls is None:
        if all(k.isidentifier() and not keyword.iskeyword(k) for k in keys):
            cls = dataclasses.make_dataclass(
                'Object', [(k, object) for k in keys], bases=(Record,),
                init=False, repr=False, eq=False)
        else:
            cls = Record
        RECORD_TYPES[keys] = cls
    return cls(fields)


def from_json(value):
    if isinstance(value, str) and UUID.match(value):
        return IdRef(value)
    if isinstance(value, dict):
        return record_of({k: from_json(v) for k, v in value.items()})
    if isinstance(value, list):
        items = [from_json(v) for v in value]
        return OneObject(items) if len(items) == 1 and isinstance(items[0], Record) else items
    if isinstance(value, tuple):
        return tuple(from_json(v) for v in value)
    return value


# --- the binary protocol's values ------------------------------------------------------------

TYPE_TOKEN = re.compile(r'\s*([A-Za-z_]\w*(?:::\w+)*|<|>|,|:)')


def result_type(text):
    """svc's printed result type (`tuple<a: std::int64, array<std::json>>`) as a tree:
    ('scalar', name) | ('array', t) | ('tuple', [(name | None, t)]) | ('other', text)."""
    tokens = [m.group(1) for m in TYPE_TOKEN.finditer(text)]
    pos = 0

    def parse():
        nonlocal pos
        name = tokens[pos]
        pos += 1
        if pos < len(tokens) and tokens[pos] == '<':
            pos += 1
            args = []
            while True:
                label = None
                if pos + 1 < len(tokens) and tokens[pos + 1] == ':':
                    label = tokens[pos]
                    pos += 2
                args.append((label, parse()))
                sep = tokens[pos]
                pos += 1
                if sep == '>':
                    break
            if name == 'array':
                return ('array', args[0][1])
            if name == 'tuple':
                return ('tuple', args)
            return ('other', name)
        return ('scalar', name)

    try:
        tree = parse()
        return tree if pos == len(tokens) else ('other', text)
    except (IndexError, ValueError):
        return ('other', text)


ISO_DURATION = re.compile(r'^PT(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?)(\d+)(?:\.(\d+))?S)?$')


def duration_value(text):
    """svc's JSON form of a `duration` (ISO 8601, each field signed: `PT-1H-20M-0.5S`) as the
    `datetime.timedelta` Gel's client decodes it to; text of another form is left as it is."""
    m = ISO_DURATION.match(text)
    if not m:
        return text
    hours, minutes, sign, seconds, fraction = m.groups()
    micros = int(seconds or 0) * 1_000_000 + int((fraction or '').ljust(6, '0')[:6] or 0)
    micros = -micros if sign == '-' else micros
    return datetime.timedelta(hours=int(hours or 0), minutes=int(minutes or 0),
                              microseconds=micros)


def binary_value(value, t):
    """A value of svc's JSON result as Gel's binary protocol decodes it in the client: `json`
    is its text (Python's json.dumps separators are PostgreSQL's jsonb text form), `bytes` are
    bytes, an unnamed tuple is a Python tuple; other values are as svc's JSON has them."""
    kind = t[0]
    if kind == 'scalar' and t[1] == 'std::json':
        # A json value is never empty here (set elements, array and tuple elements): JSON null
        # is the text 'null'.
        return json.dumps(value)
    if value is None:
        return None
    if kind == 'scalar' and t[1] == 'std::bytes' and isinstance(value, str):
        return base64.b64decode(value)
    if kind == 'scalar' and t[1] == 'std::duration' and isinstance(value, str):
        return duration_value(value)
    if kind == 'array' and isinstance(value, list):
        return [binary_value(v, t[1]) for v in value]
    if kind == 'tuple':
        elements = t[1]
        if isinstance(value, list) and all(n is None for n, _ in elements):
            return tuple(binary_value(v, et) for v, (_, et) in zip(value, elements))
        if isinstance(value, dict):
            return {n: binary_value(value.get(n), et) for n, et in elements if n in value}
    return value


def described_value(value, d):
    """A value of svc's JSON result as Gel's binary protocol decodes it, led by svc's `describe`
    descriptor of its type (docs/http.md, "Describe"): binary_value's rules, followed into
    shapes, free objects and named tuples too (an unnamed tuple anywhere is a Python tuple)."""
    kind = d.get('kind')
    if kind == 'scalar':
        name = d.get('base') or d['name']
        return binary_value(value, ('scalar', name))
    if value is None:
        return None
    if kind in ('array', 'multirange') and isinstance(value, list):
        element = d['element'] if kind == 'array' else {'kind': 'range'}
        return [described_value(v, element) for v in value]
    if kind == 'tuple' and isinstance(value, list):
        return tuple(described_value(v, e) for v, e in zip(value, d['elements']))
    if kind == 'namedtuple' and isinstance(value, dict):
        types = {e['name']: e['type'] for e in d['elements']}
        return {k: described_value(v, types[k]) if k in types else v for k, v in value.items()}
    if kind == 'object' and isinstance(value, dict):
        pointers = {p['name']: p for p in d['pointers']}
        out = {}
        for k, v in value.items():
            p = pointers.get(k)
            if p is None:
                out[k] = v
            elif v is None:
                out[k] = None
            elif isinstance(v, list) and (p['cardinality'] in ('many', 'atLeastOne')
                                          or p['type'].get('kind') == 'object'):
                out[k] = [described_value(x, p['type']) for x in v]
            else:
                out[k] = described_value(v, p['type'])
        return out
    return value


# --- errors -----------------------------------------------------------------------------------

class EdgeDBError(Exception):
    def __init__(self, message='', svc=None):
        super().__init__(message)
        self.svc = svc or {}


def error_classes(gel):
    """Gel's error classes, with their hierarchy and `_code`, read from edb/errors/__init__.py
    with `ast`, plus the client-side classes Gel's list of codes (edb/api/errors.txt) suggests
    to clients (`ClientError`, `InterfaceError`, `QueryArgumentError`, `InvalidArgumentError`,
    ...), each the child of the class whose code is its own with the last non-zero byte
    cleared, as Gel's client libraries generate them."""
    classes = {'EdgeDBError': EdgeDBError, 'GelError': EdgeDBError}
    with open(f'{gel}/edb/errors/__init__.py') as f:
        tree = ast.parse(f.read())
    by_code = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [classes.get(getattr(b, 'id', ''), EdgeDBError) for b in node.bases]
            attrs = {}
            for item in node.body:
                if (isinstance(item, ast.Assign) and len(item.targets) == 1
                        and getattr(item.targets[0], 'id', None) == '_code'
                        and isinstance(item.value, ast.Constant)):
                    attrs['_code'] = item.value.value
            classes[node.name] = type(node.name, tuple(bases) or (EdgeDBError,), attrs)
            if '_code' in attrs:
                by_code[attrs['_code']] = classes[node.name]
    with open(f'{gel}/edb/api/errors.txt') as f:
        listed = [line.split()[:2] for line in f if line.startswith('0x')]
    for code_text, name in listed:
        code = int(code_text.replace('_', ''), 16)
        if name in classes:
            continue
        parent = EdgeDBError
        for low_bytes in (1, 2, 3):
            candidate = code & ~((1 << (8 * low_bytes)) - 1)
            if candidate != code and candidate in by_code:
                parent = by_code[candidate]
                break
        classes[name] = by_code[code] = type(name, (parent,), {'_code': code})
    return classes


ERRORS = {}


# svc's refusals of a request's variables (query/engine/bind: spec item 34's 400
# VALIDATION_ERROR, and QueryArgumentError for a value of the wrong kind) are what Gel's client
# checks itself before sending (its argument encoder): the client's argument error classes.
ARGUMENT_ERRORS = [
    (re.compile(r'^missing variable \$'), 'MissingArgumentError'),
    (re.compile(r'^unknown variable \$'), 'UnknownArgumentError'),
    (re.compile(r'^variable \$\S+ is required'), 'InvalidArgumentError'),
]


# svc's refusals of a request's `globals` entry (query/engine/bind: a global of the caller's
# credentials, a computed one, an undeclared one). For a second client's `with_globals`, Gel's
# client checks its globals against the server's state description before sending and refuses
# such a name itself (QueryArgumentError, "got {...}, extra {...}"): the same meaning. (On the
# test's connection, `set global` of such a name is replay.ts's, session.ts GLOBAL_REFUSALS.)
CLIENT_GLOBAL_ERRORS = [
    re.compile(r"comes from the caller's credentials"),
    re.compile(r' is computed and cannot be set'),
    re.compile(r'^unknown global '),
]


def svc_error_class(error, client=False):
    """The Gel (client) error class an svc error stands for (`client`: a second client's
    request, carrying its `with_globals`)."""
    name = error.get('className') or ''
    message = error.get('svcMessage') or ''
    if error.get('code') == 'VALIDATION_ERROR':
        for pattern, client_class in ARGUMENT_ERRORS:
            if pattern.search(message):
                return ERRORS[client_class]
        if client and any(p.search(message) for p in CLIENT_GLOBAL_ERRORS):
            return ERRORS['QueryArgumentError']
    if name == 'QueryArgumentError':
        # svc's class of that name is a value not fitting its variable's type: in Gel's client
        # that is InvalidArgumentError (its own QueryArgumentError is the family's parent).
        return ERRORS['InvalidArgumentError']
    return ERRORS.get(name, None) or ERRORS.get('QueryError', EdgeDBError)


def raise_svc(error, client=False):
    raise svc_error_class(error, client)(error.get('message', ''), error)


# --- the connection and the test base ---------------------------------------------------------

class Connection:
    # A second client's globals (qualified names), or None: the test's own connection.
    client_globals = None

    def __init__(self, case):
        self.case = case

    async def _run(self, query, args, kwargs, single=False, binary=False):
        if kwargs.get('__typenames__'):
            raise NotImplementedError(
                '__typenames__: the binary protocol\'s type names (__tname__), not in svc\'s JSON')
        if kwargs.get('__typeids__'):
            raise NotImplementedError(
                '__typeids__: the binary protocol\'s type ids (__tid__), not in svc\'s JSON')
        variables = {k: v for k, v in kwargs.items() if not k.startswith('__')}
        for i, a in enumerate(args):
            variables[str(i)] = a
        request = {'op': 'query', 'query': query, 'variables': tagged_vars(variables)}
        client = self.client_globals is not None
        if client:
            request['client'] = {'globals': tagged_vars(self.client_globals)}
        answer = ask(request)
        if 'error' in answer:
            raise_svc(answer['error'], client)
        data = answer['data']
        if binary and answer.get('output'):
            data = [described_value(v, answer['output']) for v in data]
        elif binary and answer.get('type'):
            data = [binary_value(v, result_type(answer['type'])) for v in data]
        data = from_json(data)
        if single:
            return data[0] if data else None
        return data

    async def query(self, query, *args, **kwargs):
        return await self._run(query, args, kwargs, binary=True)

    async def _fetchall(self, query, *args, **kwargs):
        return await self._run(query, args, kwargs, binary=True)

    async def query_single(self, query, *args, **kwargs):
        return await self._run(query, args, kwargs, single=True, binary=True)

    async def query_required_single(self, query, *args, **kwargs):
        result = await self._run(query, args, kwargs, single=True, binary=True)
        if result is None:
            raise ERRORS['NoDataError']('query returned no data')
        return result

    async def query_json(self, query, *args, **kwargs):
        return json.dumps(await self._run(query, args, kwargs))

    _fetchall_json = query_json

    async def query_single_json(self, query, *args, **kwargs):
        return json.dumps(await self._run(query, args, kwargs, single=True))

    async def execute(self, query, *args, **kwargs):
        await self._run(query, args, kwargs)

    def transaction(self):
        return Transaction()

    def _clear_codecs_cache(self):
        pass

    def is_closed(self):
        return False


class AsyncClient(Connection):
    """A second client (`edgedb.create_async_client(**self.get_connect_args())`): its own
    session, whose state is Gel's defaults plus what `with_globals` gives it (a name without a
    module is `default::name`, as the client qualifies it). Its queries run in the test's
    transaction under that state (Gel's second client would not see the test's uncommitted
    writes; the tests using one write nothing before). `with_globals` returns a new client.
    Anything else of the client's API is absent (AttributeError: a `driver` failure)."""

    def __init__(self, globals_=None):
        super().__init__(None)
        self.client_globals = dict(globals_ or {})

    def with_globals(self, *args, **kwargs):
        merged = dict(self.client_globals)
        for source in (*args, kwargs):
            for name, value in dict(source).items():
                merged[name if '::' in name else f'default::{name}'] = value
        return AsyncClient(merged)

    async def aclose(self):
        pass


def create_async_client(*args, **kwargs):
    return AsyncClient()


class Transaction:
    """A transaction inside the test's own: a savepoint the runner keeps (and the schema with
    it, after DDL), rolled back or released."""

    def __init__(self, rollback_on_exit=False):
        self.rollback_on_exit = rollback_on_exit
        self.open = False

    async def start(self):
        ask({'op': 'begin'})
        self.open = True

    async def rollback(self):
        if self.open:
            ask({'op': 'rollback'})
            self.open = False

    async def commit(self):
        if self.open:
            ask({'op': 'commit'})
            self.open = False

    async def __aenter__(self):
        await self.start()
        return self

    async def __aexit__(self, kind, *exc):
        if kind is not None or self.rollback_on_exit:
            await self.rollback()
        else:
            await self.commit()
        return False


def tagged_vars(variables):
    return {k: variable(v) for k, v in variables.items()}


MESSAGE_DIFFERS = []
# The assertions of the running method (assert_query_result calls, assertRaises* blocks):
# reached and passed; IN_RAISES > 0 inside an assertRaises* block (whose calls are the block's).
TALLY = {'reached': 0, 'passed': 0}
IN_RAISES = [0]


class QueryTestCase(unittest.TestCase):
    SCHEMA = None
    SETUP = None
    # Gel's harness may run a method a second time (`is_repeat`); the runner runs each once.
    is_repeat = False

    @classmethod
    def setUpClass(cls):
        """Gel's class set-up (schema and SETUP) is the runner's; a test class's own
        `setUpClass` runs its queries through `cls.con` on `cls.loop`."""

    @classmethod
    def get_set_up(cls):
        """Gel's harness sets each class up in its own database ('separate'), as the runner
        does (a fresh database per class)."""
        return 'separate'

    def get_connect_args(self, **kwargs):
        """What `edgedb.create_async_client` takes to reach the test database: the stand-in
        client needs nothing."""
        return {}

    def __init__(self, method='runTest'):
        super().__init__(method if hasattr(self, method) else 'runTest')
        self.con = Connection(self)

    def runTest(self):
        pass

    async def assert_query_result(self, query, exp_result_json, exp_result_binary=..., *,
                                  sort=None, implicit_limit=0, variables=None, msg=None,
                                  json_only=False, binary_only=False, **_):
        variables = variables or {}
        if isinstance(variables, tuple):
            variables = {str(i): v for i, v in enumerate(variables)}
        counted = IN_RAISES[0] == 0
        if counted:
            TALLY['reached'] += 1
        answer = ask({
            'op': 'assert', 'query': query, 'expected': tagged(exp_result_json),
            'sort': sort_spec(sort), 'implicitLimit': implicit_limit,
            'variables': tagged_vars(variables), 'okOnly': bool(binary_only),
        })
        if 'error' in answer:
            raise_svc(answer['error'])
        if answer.get('difference'):
            raise AssertionError(answer['difference'])
        if counted:
            TALLY['passed'] += 1

    def assert_data_shape(self, data, shape, message=None, **_):
        answer = ask({'op': 'shape', 'data': data, 'expected': tagged(shape)})
        if answer.get('difference'):
            raise AssertionError(answer['difference'])

    def _run_and_rollback(self):
        return Transaction(rollback_on_exit=True)

    async def migrate(self, migration, *, module='default'):
        """Gel's `migrate`: the schema becomes `migration` (in `module`), as a migration script."""
        if module:
            migration = f'module {module} {{ {migration} }}'
        await self.con.execute(
            f'start migration to {{ {migration} }}; populate migration; commit migration;')

    @contextlib.contextmanager
    def annotate(self, **kwargs):
        """Gel's test base: notes for a failure inside the block (added to its message)."""
        try:
            yield
        except AssertionError as e:
            notes = ', '.join(f'{k}={v!r}' for k, v in kwargs.items())
            raise AssertionError(f'{e} [{notes}]') from None

    def assertRaisesRegex(self, exception, regex=None, msg=None, **_):
        return raises(exception, regex)

    @contextlib.asynccontextmanager
    async def assertRaisesRegexTx(self, exception, regex=None, msg=None, **_):
        with raises(exception, regex):
            async with Transaction(rollback_on_exit=True):
                yield

    def assertRaises(self, exception, *args, **kwargs):
        return raises(exception, None)


@contextlib.contextmanager
def raises(exception, regex):
    """Like unittest's, but a message not matching Gel's regex is noted, not failed (svc's
    messages are its own; the class must match). One assertion (TALLY)."""
    TALLY['reached'] += 1
    IN_RAISES[0] += 1
    try:
        yield
    except exception as e:
        if regex and not re.search(regex, str(e), re.I):
            MESSAGE_DIFFERS.append(True)
        TALLY['passed'] += 1
        return
    except EdgeDBError as e:
        raise AssertionError(
            f'expected {exception.__name__}, got {type(e).__name__}: {e}') from None
    finally:
        IN_RAISES[0] -= 1
    raise AssertionError(f'expected {exception.__name__}, got no error')


def sort_spec(sort):
    """`sort=` as replay.ts reads it: True, a key path, or a dict of those; a lambda is probed
    with a recording object to learn the path it reads."""
    if sort is None or sort is True:
        return sort
    if isinstance(sort, dict):
        return {k: sort_spec(v) for k, v in sort.items()}
    if callable(sort):
        # Each access chain on the argument is its own key path (`x[0]`, `x['a'][1]`); a key
        # returning a tuple of them (`(x[0], x[1])`) sorts by each in turn, as Python compares
        # tuples. A conditional such as `x[0] if x else ''` follows the truthy branch; the
        # runner sorts an element missing the path first (as '' or 0 would).
        # Anything else reads as the keys it touched, in order (one path).
        touched = []

        class Probe:
            def __init__(self, path):
                self.path = path

            def __getitem__(self, key):
                touched.append(key)
                return Probe(self.path + [key])

            def __getattr__(self, key):
                if key.startswith('__'):
                    raise AttributeError(key)
                touched.append(key)
                return Probe(self.path + [key])
        try:
            key = sort(Probe([]))
        except Exception:
            raise NotImplementedError('a sort key the driver cannot follow')
        if isinstance(key, Probe) and key.path:
            return {'$key': key.path}
        if (isinstance(key, tuple) and key
                and all(isinstance(k, Probe) and k.path for k in key)):
            return {'$keys': [k.path for k in key]}
        return {'$key': touched}
    raise NotImplementedError('a sort key the driver cannot follow')


class NamedTuple(Record):
    """The client's named tuple: svc answers a named tuple as an object (spec item 17)."""

    def __init__(self, **fields):
        super().__init__(fields)


class FrozenMap(dict):
    """`immutables.Map` as the tests use it: an immutable, hashable mapping."""

    def __hash__(self):
        return hash(frozenset(self.items()))

    def _refuse(self, *args, **kwargs):
        raise TypeError('immutables.Map is immutable')

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _refuse


def constants(path):
    """The module-level constants of a Python file of Gel's (`NAME = <expression>` over earlier
    constants), read with `ast`: what `edb.schema.defines` gives the tests."""
    with open(path) as f:
        tree = ast.parse(f.read())
    values = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            try:
                values[node.targets[0].id] = eval(  # noqa: S307 - Gel's constants file
                    compile(ast.Expression(node.value), path, 'eval'), {'__builtins__': {}},
                    dict(values))
            except Exception:
                pass
    return values


def server_module(name, classes=None):
    """A module of Gel's server (`edb.ir.statypes`, `edb.server.config`): its code needs Gel's
    server and Python 3.12, so any use of it fails the test as `driver`, naming it; but for
    `classes`, a dict of the module's self-contained classes (`statypes_classes`)."""
    module = types.ModuleType(name)
    module.__dict__.update(classes or {})

    def missing(attr):
        if attr.startswith('__'):
            raise AttributeError(attr)
        raise NotImplementedError(f'{name}.{attr}: Gel\'s server code, not available to the driver')
    module.__getattr__ = missing
    return module


STATYPES_CLASSES = ('ScalarType', 'Duration', 'ConfigMemory')


def statypes_classes(gel, errors):
    """`edb.ir.statypes`' value classes (`Duration`, `ConfigMemory`: their text parsers and
    printers, Gel's own reference for what its casts accept), read from the checkout with `ast`
    and run alone: they need only the standard library and Gel's error classes (the stand-ins).
    The rest of the module (composite config types) needs Gel's server."""
    path = f'{gel}/edb/ir/statypes.py'
    with open(path) as f:
        lines = f.read().split('\n')
    # The module as a whole is Python 3.12 (`class EnumScalarType[E: ...]`): each wanted class
    # is cut out as its own top-level block (with its decorators) and parsed alone.
    wanted = []
    for name in STATYPES_CLASSES:
        start = next((i for i, line in enumerate(lines)
                      if re.match(rf'class {name}\b[(:]', line)), None)
        if start is None:
            continue
        end = start + 1
        while end < len(lines) and (not lines[end] or lines[end][0] in ' #)'):
            end += 1
        while start > 0 and lines[start - 1].startswith('@'):
            start -= 1
        try:
            wanted.extend(ast.parse('\n'.join(lines[start:end]), filename=path).body)
        except SyntaxError:
            return {}
    import datetime as datetime_module
    import decimal as decimal_module
    import functools
    import struct
    import typing
    namespace = {'__name__': 'edb.ir.statypes', 're': re, 'struct': struct,
                 'functools': functools, 'datetime': datetime_module,
                 'decimal': decimal_module, 'errors': errors, 'Optional': typing.Optional,
                 'Any': typing.Any}
    try:
        code = compile(ast.Module(body=wanted, type_ignores=[]), path, 'exec',
                       flags=__future__.annotations.compiler_flag, dont_inherit=True)
        exec(code, namespace)  # noqa: S102 - Gel's own classes, from its checkout
    except Exception:
        return {}
    return {name: namespace[name] for name in STATYPES_CLASSES if name in namespace}


def identity_decorator(*args, **kwargs):
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def install_stand_ins(gel):
    ERRORS.update(error_classes(gel))
    client = types.ModuleType('edgedb')
    for name, cls in ERRORS.items():
        setattr(client, name, cls)
    client.errors = client
    client.Set = list
    client.Object = Record
    client.NamedTuple = NamedTuple
    client.Tuple = tuple
    client.Range = Range
    client.MultiRange = MultiRange
    client.create_async_client = create_async_client
    sys.modules['edgedb'] = client
    sys.modules['gel'] = client
    edb = types.ModuleType('edb')
    edb.__path__ = []
    edb.errors = client
    testbase = types.ModuleType('edb.testbase')
    server = types.ModuleType('edb.testbase.server')
    server.QueryTestCase = QueryTestCase
    server.DDLTestCase = QueryTestCase
    server.BaseQueryTestCase = QueryTestCase
    server.bag = Bag
    server.needs_factoring = identity_decorator
    server.needs_factoring_weakly = identity_decorator
    server.ignore_warnings = identity_decorator
    testbase.server = server
    tools = types.ModuleType('edb.tools')
    test = types.ModuleType('edb.tools.test')
    for name in ('xfail', 'xerror', 'not_implemented', 'skip', 'async_timeout'):
        setattr(test, name, identity_decorator)
    tools.test = test
    common = types.ModuleType('edb.common')
    shape = types.ModuleType('edb.common.assert_data_shape')

    def assert_data_shape(data, expected, fail, message=None, **_):
        answer = ask({'op': 'shape', 'data': data, 'expected': tagged(expected)})
        if answer.get('difference'):
            fail(answer['difference'])
    shape.assert_data_shape = assert_data_shape
    common.assert_data_shape = shape
    edb.testbase, edb.tools, edb.common = testbase, tools, common
    schema = types.ModuleType('edb.schema')
    defines = types.ModuleType('edb.schema.defines')
    defines.__dict__.update(constants(f'{gel}/edb/schema/defines.py'))
    schema.defines = defines
    ir = types.ModuleType('edb.ir')
    ir.statypes = server_module('edb.ir.statypes', statypes_classes(gel, client))
    edb_server = types.ModuleType('edb.server')
    edb_server.config = server_module('edb.server.config')
    edb.schema, edb.ir, edb.server = schema, ir, edb_server
    immutables = types.ModuleType('immutables')
    immutables.Map = FrozenMap
    for name, module in {'edb': edb, 'edb.errors': client, 'edb.testbase': testbase,
                         'edb.testbase.server': server, 'edb.tools': tools,
                         'edb.tools.test': test, 'edb.common': common,
                         'edb.common.assert_data_shape': shape, 'edb.schema': schema,
                         'edb.schema.defines': defines, 'edb.ir': ir,
                         'edb.ir.statypes': ir.statypes, 'edb.server': edb_server,
                         'edb.server.config': edb_server.config,
                         'immutables': immutables}.items():
        sys.modules[name] = module


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--gel', required=True)
    parser.add_argument('--file', required=True)
    parser.add_argument('--class', dest='cls', required=True)
    args = parser.parse_args()
    install_stand_ins(args.gel)
    spec = importlib.util.spec_from_file_location('gel_test', f'{args.gel}/tests/{args.file}')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls = getattr(module, args.cls)
    loop = asyncio.new_event_loop()
    cls.loop = loop
    cls.con = Connection(None)
    class_ready = False
    PROTOCOL_OUT.write(json.dumps({'op': 'ready'}) + '\n')
    PROTOCOL_OUT.flush()
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)
        name = request['test']
        MESSAGE_DIFFERS.clear()
        TALLY.update(reached=0, passed=0)
        IN_RAISES[0] = 0
        outcome = {'op': 'done', 'test': name, 'status': 'pass'}
        try:
            if not class_ready:
                # Inside the first test's transaction: class set-ups read (Gel's keep ids).
                class_ready = True
                cls.setUpClass()
            case = cls(name)
            loop.run_until_complete(asyncio.wait_for(getattr(case, name)(), request.get('timeout', 30)))
            if MESSAGE_DIFFERS:
                outcome['messageDiffers'] = True
        except AssertionError as e:
            outcome.update(status='fail', failure='wrong result', detail=str(e)[:500])
        except EdgeDBError as e:
            outcome.update(status='fail', failure=type(e).__name__,
                           detail=f'{type(e).__name__}: {e}'[:500])
        except BaseException as e:  # the driver's own limits: counted as failures, named
            outcome.update(status='fail', failure='driver',
                           detail=f'{type(e).__name__}: {e}'[:500])
        outcome['assertions'] = dict(TALLY)
        PROTOCOL_OUT.write(json.dumps(outcome) + '\n')
        PROTOCOL_OUT.flush()


if __name__ == '__main__':
    main()
