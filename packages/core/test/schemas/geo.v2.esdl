# Arrays and tuples, v2: a new tuple and array property, elevations widened, an index.
module default {
    scalar type Coordinate extending float64 {
        constraint min_value(-180);
        constraint max_value(180);
    }

    type Place {
        required name: str;
        required location: tuple<lat: float64, lng: float64>;
        aliases: array<str>;
        required tags: array<str> { default := <array<str>>[]; }
        bbox: tuple<float64, float64, float64, float64>;
        required origin: tuple<str, int64> { default := ('gps', 0); }
        index on (.name);
    }

    type Route {
        required name: str;
        required waypoints: array<tuple<lat: float64, lng: float64>>;
        required distances_m: array<float64> { default := <array<float64>>[]; }
        elevations: array<int64>;
        required bounds: tuple<float64, float64> { default := (0.0, 0.0); }
        coordinates: array<Coordinate>;
        multi stops: Place {
            position: int32;
            on target delete allow;
        }
        constraint expression on (len(.distances_m) <= 1000);
    }

    type Measurement {
        required taken_at: datetime { default := datetime_current(); }
        required values: array<float64>;
        required sensor: tuple<vendor: str, model: str, serial: int64>;
        link place: Place { on target delete allow; }
        multi readings: float64;
        labels: array<str>;
        index on (.taken_at);
    }
}
