"""Extracts Gel's EdgeQL result tests into JSON for the replay runner (replay.ts).

Input: a Gel checkout (tests/test_edgeql_*.py, tests/schemas/, edb/errors/__init__.py). Output
(stdout or --out): JSON {"gel": <checkout>, "errors": {class: parent}, "files": [{"file",
"classes": [{"name", "schema", "setup", "tests"}]}]}.

Read with Python's `ast` module, never imported or run. Per test class: the SDL of each module
(SCHEMA -> default, SCHEMA_<NAME> -> <name>; inherited from base classes in the same file) and
the SETUP as a list of EdgeQL scripts (file contents or inline text). Per test method, in source
order: every `self.con.execute/query*(q)` (must succeed), `self.assert_query_result(q, expected,
...)` (with sort / implicit_limit / variables / json_only / binary_only) and every query inside
`with self.assertRaisesRegex[Tx](Class, regex)` (must raise Class). A method with anything the
extractor cannot follow (loops, computed query text, non-literal expectations, helper calls that
run queries) is kept with `"complete": false` and the reason, so the runner counts it.

Expected values are JSON with tagged forms for what JSON lacks: {"$bag": [...]} (unordered),
{"$set": [...]}, {"$ellipsis": true} (a list's "and more like the previous"), {"$type": "str"}
(any value of a Python type), {"$float": x}.
"""
import argparse
import ast
import json
import os
import re
import sys

from expectations import Bag, tagged


class Unextractable(Exception):
    pass


# Literal local variables of the method being extracted (`q = """..."""`, `exp = [...]`),
# so `self.assert_query_result(q, exp)` can be followed.
LOCALS = {}
# Helper methods of the class being extracted (`await self._setup_basic_data()` is inlined when
# it takes no arguments).
HELPERS = {}
# The assertions of the method being extracted, numbered in order: each `assert_query_result`
# and each `assertRaises*` block (its steps share the number); a step outside both has none.
ASSERTIONS = [0]


def next_assertion():
    ASSERTIONS[0] += 1
    return ASSERTIONS[0]


QUERY_METHODS = {'execute', 'query', 'query_single', 'query_required_single', 'query_json',
                 'query_single_json', '_fetchall', '_fetchall_json'}


def literal_str(node):
    """A query text: string literals, `+` of them, implicit concatenation; no f-strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal_str(node.left) + literal_str(node.right)
    if isinstance(node, ast.Name) and node.id in LOCALS and isinstance(LOCALS[node.id], str):
        return LOCALS[node.id]
    if isinstance(node, ast.JoinedStr):
        raise Unextractable('query text is an f-string')
    raise Unextractable(f'query text is computed ({type(node).__name__})')


def value(node):
    """A Python literal expectation -> JSON (tagged where JSON lacks the form)."""
    if isinstance(node, ast.Constant):
        if node.value is Ellipsis:
            return {'$ellipsis': True}
        if isinstance(node.value, float):
            return {'$float': node.value}
        if isinstance(node.value, bytes):
            raise Unextractable('bytes literal in expectation')
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = value(node.operand)
        if isinstance(inner, dict) and '$float' in inner:
            return {'$float': -inner['$float']}
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
        raise Unextractable('negated non-number')
    if isinstance(node, (ast.List, ast.Tuple)):
        return [value(e) for e in node.elts]
    if isinstance(node, ast.Set):
        return {'$set': [value(e) for e in node.elts]}
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise Unextractable('dict unpacking in expectation')
            key = value(k)
            if not isinstance(key, str):
                raise Unextractable('non-string dict key')
            out[key] = value(v)
        return out
    if isinstance(node, ast.Name) and node.id in LOCALS:
        return LOCALS[node.id]
    if isinstance(node, ast.Name) and node.id in ('str', 'int', 'float', 'bool'):
        return {'$type': node.id}
    if isinstance(node, ast.Attribute) and node.attr == 'UUID':
        return {'$type': 'uuid'}
    if isinstance(node, ast.Call):
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, 'id', None)
        if name == 'bag' and len(node.args) == 1:
            return {'$bag': value(node.args[0])}
        if name == 'UUID' and len(node.args) == 1:
            return value(node.args[0])
        if name in ('list', 'tuple') and len(node.args) == 1:
            return value(node.args[0])
        if name == 'Decimal' and len(node.args) == 1:
            v = value(node.args[0])
            return float(v) if isinstance(v, str) else v
        return evaluated(node, f'call {name} in expectation')
    return evaluated(node, f'{type(node).__name__} in expectation')


# What an evaluated expectation may call: pure builtins and Gel's test helpers' data forms.
SAFE_CALLS = {
    'list': list, 'tuple': tuple, 'set': set, 'frozenset': frozenset, 'range': range,
    'sorted': sorted, 'len': len, 'str': str, 'int': int, 'float': float, 'bool': bool,
    'abs': abs, 'min': min, 'max': max, 'sum': sum, 'zip': zip, 'enumerate': enumerate,
    'reversed': reversed, 'bag': Bag, 'loads': json.loads,
}
SAFE_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Constant,
    ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp,
    ast.GeneratorExp, ast.comprehension, ast.Name, ast.Call, ast.Attribute, ast.Subscript,
    ast.Slice, ast.keyword, ast.Starred, ast.Load, ast.Store, ast.operator, ast.unaryop,
    ast.boolop, ast.cmpop, ast.expr_context,
)


def evaluated(node, reason):
    """An expectation that is a pure Python expression over literals (`[1] * 3`, a list
    comprehension, `tb.bag(range(5))`, `json.loads('...')`), evaluated with only SAFE_CALLS in
    scope; anything else (names of the test's locals, attribute access other than `tb.bag` and
    `json.loads`) stays unextractable with `reason`."""
    bound = {t.id for c in ast.walk(node) if isinstance(c, ast.comprehension)
             for t in ast.walk(c.target) if isinstance(t, ast.Name)}
    for child in ast.walk(node):
        if not isinstance(child, SAFE_NODES):
            raise Unextractable(reason)
        if isinstance(child, ast.Attribute):
            if not (isinstance(child.value, ast.Name) and (child.value.id, child.attr) in
                    {('tb', 'bag'), ('json', 'loads')}):
                raise Unextractable(reason)
        if isinstance(child, ast.Name) and child.id not in bound and child.id not in SAFE_CALLS \
                and child.id not in ('tb', 'json'):
            raise Unextractable(reason)
    namespace = {'__builtins__': {}, **SAFE_CALLS,
                 'tb': type('tb', (), {'bag': Bag}), 'json': type('json', (), {'loads': json.loads})}
    try:
        result = eval(compile(ast.Expression(node), '<expectation>', 'eval'), namespace)
    except Exception:
        raise Unextractable(reason)
    try:
        return tagged(result)
    except TypeError as e:
        raise Unextractable(str(e))


def sort_spec(node):
    """sort=True, a key lambda `x: x['a'][0]` (-> key path) or a dict of those."""
    if isinstance(node, ast.Constant) and node.value is True:
        return True
    if isinstance(node, ast.Lambda):
        path = []
        body = node.body
        while isinstance(body, ast.Subscript):
            key = body.slice
            if not isinstance(key, ast.Constant):
                raise Unextractable('sort key is not a constant path')
            path.insert(0, key.value)
            body = body.value
        if not (isinstance(body, ast.Name) and body.id == node.args.args[0].arg) or not path:
            raise Unextractable('sort key lambda is not x[...]')
        return {'$key': path}
    if isinstance(node, ast.Dict):
        return {value(k): sort_spec(v) for k, v in zip(node.keys, node.values)}
    raise Unextractable('sort is not True, a key path lambda or a dict')


def is_self_call(call, names):
    fn = call.func
    if not isinstance(fn, ast.Attribute) or fn.attr not in names:
        return False
    target = fn.value
    if isinstance(target, ast.Name) and target.id == 'self':
        return True
    return (isinstance(target, ast.Attribute) and target.attr == 'con'
            and isinstance(target.value, ast.Name) and target.value.id == 'self')


def unawait(node):
    return node.value if isinstance(node, ast.Await) else node


def step_of_call(call, error=None):
    fn = call.func
    if is_self_call(call, {'assert_query_result'}):
        if not call.args:
            raise Unextractable('assert_query_result without a query')
        query = literal_str(call.args[0])
        kw = {k.arg: k.value for k in call.keywords}
        if 'exp_result_json' in kw:
            expected_node = kw['exp_result_json']
        elif len(call.args) > 1:
            expected_node = call.args[1]
        else:
            raise Unextractable('assert_query_result without an expectation')
        step = {'query': query}
        if kw.get('binary_only') is not None and getattr(kw['binary_only'], 'value', False):
            step['expect'] = {'kind': 'ok', 'why': 'binary_only'}
        else:
            step['expect'] = {'kind': 'result', 'value': value(expected_node)}
        if 'sort' in kw:
            step['sort'] = sort_spec(kw['sort'])
        if 'implicit_limit' in kw:
            step['implicitLimit'] = value(kw['implicit_limit'])
        if 'variables' in kw:
            variables = value(kw['variables'])
            if isinstance(variables, list):
                variables = {str(i): v for i, v in enumerate(variables)}
            step['variables'] = variables
        if error:
            step['expect'] = error
        else:
            step['assertion'] = next_assertion()
        return step
    if is_self_call(call, QUERY_METHODS):
        if not call.args:
            raise Unextractable('query call without text')
        step = {'query': literal_str(call.args[0])}
        extra = [value(a) for a in call.args[1:]]
        kw = {k.arg: value(k.value) for k in call.keywords if k.arg and not k.arg.startswith('__')}
        if extra:
            kw.update({str(i): v for i, v in enumerate(extra)})
        if kw:
            step['variables'] = kw
        step['expect'] = error or {'kind': 'ok'}
        return step
    name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, 'id', '?')
    helper = HELPERS.get(name)
    if (helper is not None and not call.args and not call.keywords and isinstance(fn, ast.Attribute)
            and isinstance(fn.value, ast.Name) and fn.value.id == 'self'
            and len(helper.args.args) == 1):
        return steps_of(helper.body, error)
    raise Unextractable(f'call to {name}')


def error_of(with_item):
    call = with_item.context_expr
    if not (isinstance(call, ast.Call) and is_self_call(
            call, {'assertRaisesRegex', 'assertRaisesRegexTx', 'assertRaises'})):
        raise Unextractable('a with block other than assertRaisesRegex')
    cls = call.args[0] if call.args else None
    name = cls.attr if isinstance(cls, ast.Attribute) else getattr(cls, 'id', None)
    if not name:
        raise Unextractable('assertRaises class is computed')
    regex = None
    if len(call.args) > 1:
        regex = literal_str(call.args[1])
    return {'kind': 'error', 'className': name, 'regex': regex}


def steps_of(body, error=None):
    steps = []
    for stmt in body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            if len(stmt.items) != 1:
                raise Unextractable('a with block of several items')
            inner = error_of(stmt.items[0])
            if error:
                raise Unextractable('nested assertRaises blocks')
            block = next_assertion()
            inner_steps = steps_of(stmt.body, inner)
            for step in inner_steps:
                step['assertion'] = block
            steps.extend(inner_steps)
            continue
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and not stmt.orelse:
            steps.extend(unrolled(stmt, error))
            continue
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and not isinstance(unawait(stmt.value), ast.Call)):
            try:
                LOCALS[stmt.targets[0].id] = value(stmt.value)
            except Unextractable:
                LOCALS.pop(stmt.targets[0].id, None)
            continue
        target = None
        if isinstance(stmt, ast.Expr):
            target = unawait(stmt.value)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(unawait(stmt.value), ast.Call):
            target = unawait(stmt.value)  # result kept in a variable: only must succeed
        if isinstance(target, ast.Call):
            found = step_of_call(target, error)
            steps.extend(found if isinstance(found, list) else [found])
            continue
        raise Unextractable(f'{type(stmt).__name__} statement')
    return steps


def unrolled(loop, error):
    """A loop over a literal list, unrolled: the body once per element, the target bound."""
    items = value(loop.iter)
    if isinstance(items, dict) or not isinstance(items, list):
        raise Unextractable('a loop over a computed iterable')
    steps = []
    for item in items:
        if isinstance(loop.target, ast.Name):
            LOCALS[loop.target.id] = item
        elif isinstance(loop.target, ast.Tuple) and isinstance(item, list) and len(item) == len(loop.target.elts):
            for name, part in zip(loop.target.elts, item):
                if not isinstance(name, ast.Name):
                    raise Unextractable('a loop target other than names')
                LOCALS[name.id] = part
        else:
            raise Unextractable('a loop target other than names')
        steps.extend(steps_of(loop.body, error))
    return steps


ASSERT_RAISES = {'assertRaises', 'assertRaisesRegex', 'assertRaisesRegexTx'}


def written_assertions(fn):
    """The assertions written in a method's source: its `self.assert_query_result(...)` calls
    outside `assertRaises*` blocks and its `with self.assertRaises*(...)` blocks (a loop's body
    counted once). The runner's count for a method it runs as Python (live.py), whose
    assertions after a failure are not reached."""
    count = 0

    def visit(node, in_block):
        nonlocal count
        if isinstance(node, (ast.With, ast.AsyncWith)):
            raises = [i for i in node.items if isinstance(i.context_expr, ast.Call)
                      and is_self_call(i.context_expr, ASSERT_RAISES)]
            count += len(raises)
            for child in node.body:
                visit(child, in_block or bool(raises))
            return
        if (isinstance(node, ast.Call) and not in_block
                and is_self_call(node, {'assert_query_result'})):
            count += 1
        for child in ast.iter_child_nodes(node):
            visit(child, in_block)

    for stmt in fn.body:
        visit(stmt, False)
    return count


def resolve_path(node, tests_dir):
    """os.path.join(os.path.dirname(__file__), 'schemas', 'x.esdl') -> tests/schemas/x.esdl."""
    if isinstance(node, ast.Call) and getattr(node.func, 'attr', None) == 'join':
        parts = [a.value for a in node.args if isinstance(a, ast.Constant)]
        return os.path.join(tests_dir, *parts)
    return None


def script_of(node, tests_dir):
    path = resolve_path(node, tests_dir)
    if path:
        with open(path) as f:
            return {'source': os.path.relpath(path, os.path.dirname(tests_dir)), 'text': f.read()}
    return {'source': 'inline', 'text': literal_str(node)}


def class_info(cls, tests_dir, known):
    info = {'schema': {}, 'setup': [], 'bases': [getattr(b, 'id', None) for b in cls.bases]}
    for base in info['bases']:
        if base in known:
            info['schema'].update(known[base]['schema'])
            info['setup'] = list(known[base]['setup'])
    for stmt in cls.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)):
            continue
        name = stmt.targets[0].id
        if name == 'SCHEMA' or name.startswith('SCHEMA_'):
            module = 'default' if name == 'SCHEMA' else name[len('SCHEMA_'):].lower()
            try:
                info['schema'][module] = script_of(stmt.value, tests_dir)
            except Unextractable as e:
                info['schemaError'] = str(e)
        elif name == 'SETUP':
            nodes = stmt.value.elts if isinstance(stmt.value, (ast.List, ast.Tuple)) else [stmt.value]
            try:
                info['setup'] = [script_of(n, tests_dir) for n in nodes]
            except Unextractable as e:
                info['setupError'] = str(e)
    return info


def extract_file(path, tests_dir):
    tree = ast.parse(open(path).read(), filename=path)
    known = {}
    classes = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        info = class_info(cls, tests_dir, known)
        known[cls.name] = info
        tests = []
        HELPERS.clear()
        HELPERS.update({fn.name: fn for fn in cls.body
                        if isinstance(fn, ast.AsyncFunctionDef) and not fn.name.startswith('test_')})
        for fn in cls.body:
            if not isinstance(fn, (ast.AsyncFunctionDef, ast.FunctionDef)) or not fn.name.startswith('test_'):
                continue
            test = {'name': fn.name, 'line': fn.lineno}
            # Gel's own marks: skipped, or expected to fail (xfail, xerror, not_implemented: the
            # runner's unittest.expectedFailure). Not Gel's behaviour, so not counted (README).
            marked = [d for d in fn.decorator_list
                      if any(k in ast.unparse(d) for k in ('skip', 'xfail', 'xerror', 'not_implemented'))]
            if marked:
                test['gelMarked'] = ast.unparse(marked[0])[:200]
            LOCALS.clear()
            ASSERTIONS[0] = 0
            test['assertions'] = written_assertions(fn)
            try:
                test['steps'] = steps_of(fn.body)
                test['complete'] = True
            except Unextractable as e:
                test['complete'] = False
                test['reason'] = str(e)
            tests.append(test)
        if tests:
            classes.append({
                'name': cls.name,
                'schema': info['schema'],
                'setup': info['setup'],
                **({'setupError': info['setupError']} if 'setupError' in info else {}),
                **({'schemaError': info['schemaError']} if 'schemaError' in info else {}),
                'tests': tests,
            })
    return classes


def error_parents(gel):
    """Gel's error classes, each with its parent class (edb/errors/__init__.py, read with
    `ast`): the runner judges an expected error by Gel's hierarchy, as live.py does."""
    with open(os.path.join(gel, 'edb', 'errors', '__init__.py')) as f:
        tree = ast.parse(f.read())
    parents = {'EdgeDBError': None}  # the root (edb/errors/base.py)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            parents[node.name] = bases[0] if bases else None
    return parents


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--gel', default='/work/gel/gel', help='Gel checkout')
    parser.add_argument('--out', help='output JSON file (default stdout)')
    parser.add_argument('files', nargs='*', help='test file names (default: every test_edgeql_*.py)')
    args = parser.parse_args()
    tests_dir = os.path.join(args.gel, 'tests')
    names = args.files or sorted(f for f in os.listdir(tests_dir)
                                 if re.match(r'test_edgeql_.*\.py$', f))
    out = {'gel': os.path.abspath(args.gel), 'errors': error_parents(args.gel), 'files': []}
    for name in names:
        out['files'].append({'file': name, 'classes': extract_file(os.path.join(tests_dir, name), tests_dir)})
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    total = sum(len(c['tests']) for f in out['files'] for c in f['classes'])
    complete = sum(t['complete'] for f in out['files'] for c in f['classes'] for t in c['tests'])
    print(f'{len(names)} files, {total} test methods, {complete} fully extracted', file=sys.stderr)


if __name__ == '__main__':
    main()
