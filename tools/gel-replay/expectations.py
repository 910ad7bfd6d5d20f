"""The expectation values Gel's tests write, as the replay runner reads them (tagged JSON).

Shared by extract.py (expectations evaluated from the test source) and live.py (expectations
built while a test runs): `Bag` is `tb.bag(...)`, `Range` the client's range, `MultiRange` its
multirange (a list of ranges: Gel's JSON writes an array), and `tagged` turns a Python value into
JSON with tags for what JSON lacks: {"$bag": [...]} (unordered), {"$set": [...]},
{"$ellipsis": true}, {"$type": "str"} (any value of a type), {"$float": x}.
`bytes` are their base64 text (RFC 4648, padded, no line breaks): the JSON form svc gives bytes
and takes for `<bytes>` variables (spec item 30), and the form Gel's own JSON output has.
A value it cannot express raises TypeError.
"""
import base64
import datetime
import decimal
import uuid


class Bag(list):
    """`tb.bag(...)`: a list compared without order."""


class Range:
    """The client library's `Range`, as Gel's JSON writes it."""

    def __init__(self, lower=None, upper=None, *, inc_lower=True, inc_upper=False, empty=False):
        self.lower, self.upper = lower, upper
        self.inc_lower, self.inc_upper, self.empty = inc_lower, inc_upper, empty


class MultiRange(list):
    """The client library's `MultiRange`: its ranges, as a list (Gel's JSON: an array of ranges)."""

    def __init__(self, iterable=()):
        super().__init__(iterable)


def tagged(v):
    """A Python expectation -> the tagged JSON extract.py writes (see its docstring)."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(v)).decode('ascii')
    if isinstance(v, Bag):
        return {'$bag': [tagged(e) for e in v]}
    if isinstance(v, (set, frozenset)):
        return {'$set': [tagged(e) for e in v]}
    if isinstance(v, (list, tuple, range)):
        return [tagged(e) for e in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            raise TypeError('non-string dict key in an expectation')
        return {k: tagged(e) for k, e in v.items()}
    if v is Ellipsis:
        return {'$ellipsis': True}
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return {'$float': v}
    if isinstance(v, decimal.Decimal):
        return {'$float': float(v)}
    if isinstance(v, uuid.UUID):
        return str(v)
    if isinstance(v, type):
        return {'$type': {'str': 'str', 'int': 'int', 'float': 'float', 'bool': 'bool',
                          'UUID': 'uuid'}.get(v.__name__, 'any')}
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    if isinstance(v, datetime.timedelta):
        return {'$type': 'any'}
    if isinstance(v, Range):
        return ({'empty': True} if v.empty else
                {'lower': tagged(v.lower), 'upper': tagged(v.upper),
                 'inc_lower': v.inc_lower, 'inc_upper': v.inc_upper})
    raise TypeError(f'cannot send a {type(v).__name__} expectation')


def variable(v):
    """A Python query argument -> the JSON svc takes for it (query/api.ts: values by name as JSON;
    std/params.ts: exact numbers and int64 may be digit strings, bytes base64, ranges as objects)."""
    if isinstance(v, float):
        return v
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2 ** 53 - 1:
        return str(v)  # beyond JSON's exact integers: digits (std/params.ts, int64 and bigint)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, (list, tuple)) and not isinstance(v, Bag):
        return [variable(e) for e in v]
    if isinstance(v, dict):
        return {k: variable(e) for k, e in v.items()}
    if isinstance(v, Range):
        return ({'empty': True} if v.empty else
                {'lower': variable(v.lower), 'upper': variable(v.upper),
                 'inc_lower': v.inc_lower, 'inc_upper': v.inc_upper})
    return tagged(v)
