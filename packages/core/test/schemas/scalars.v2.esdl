# Every std scalar, v2: widened numeric types, a changed default, more array defaults.
module default {
    type AllScalars {
        a_str: str;
        a_bool: bool;
        a_int16: int32;
        a_int32: int32;
        a_int64: int64;
        a_float32: float64;
        a_float64: float64;
        a_bigint: bigint;
        a_decimal: decimal;
        a_uuid: uuid;
        a_json: json;
        a_bytes: bytes;
        a_datetime: datetime;
        a_duration: duration;
        a_local_datetime: cal::local_datetime;
        a_local_date: cal::local_date;
        a_local_time: cal::local_time;
        a_relative_duration: cal::relative_duration;
        a_date_duration: cal::date_duration;
    }

    type Defaults {
        required d_str: str { default := 'it\'s "quoted"'; }
        required d_bool: bool { default := true; }
        required d_int16: int16 { default := <int16>7; }
        required d_int32: int32 { default := 2147483647; }
        required d_int64: int64 { default := 0; }
        required d_float32: float32 { default := 1.5; }
        required d_float64: float64 { default := -2.5e-3; }
        required d_bigint: bigint { default := 123456789012345678901234567890n; }
        required d_decimal: decimal { default := 12.50n; }
        required d_uuid: uuid { default := uuid_generate_v4(); }
        required d_json: json { default := to_json('{"a": [1, 2]}'); }
        required d_bytes: bytes { default := b'\x00\xffabc'; }
        required d_datetime: datetime { default := <datetime>'2024-01-01T00:00:00Z'; }
        required d_duration: duration { default := <duration>'1 hour'; }
        required d_local_date: cal::local_date { default := <cal::local_date>'2024-02-29'; }
        required d_local_time: cal::local_time { default := <cal::local_time>'12:30:00'; }
        required d_arith: int64 { default := 6 * 7 + 1; }
        required d_ratio: float64 { default := 1 / 3; }
        required d_floor: int64 { default := -7 // 2; }
        required d_mod: int64 { default := -7 % 3; }
        required d_power: float64 { default := 2 ^ 10; }
        required d_concat: str { default := 'a' ++ 'b' ++ to_str(42); }
        required d_if: str { default := 'big' if 3 > 2 else 'small'; }
        required d_coalesce: str { default := <str>{} ?? 'fallback'; }
    }

    type Arrays {
        words: array<str>;
        required counts: array<int64> { default := [1, 2, 3]; }
        required empty: array<str> { default := <array<str>>[]; }
        moments: array<datetime>;
        required joined: array<str> { default := ['a'] ++ ['b', 'c']; }
        multi tags: str;
        multi numbers: int64;
        required flags: array<bool> { default := [true, false]; }
    }
}
