#!/usr/bin/env python3
"""Run PyVRP 0.14 on a request with the travel fields, and score its routes with our evaluator.

The peers' pyvrp-eval.py converts plain requests and refuses the fields of constraints.md's "Time
and cost as partners measure them". This tool converts those of them that PyVRP 0.14 models the
same way, solves, and rescores PyVRP's routes through our own evaluator (bench/peers/
rescore-pyvrp.ts: the request with the routes as initial_routes and max_iterations 0, "evaluate
only"), so both solvers are priced by the same rules. PyVRP's integer objective is never the score.

Usage (the python of the venv that ../shared/peers/build-pyvrp.sh made):
  PYTHON bench/peers/pyvrp-travel.py REQUEST.json [-l SECONDS] [--seed N] [--name LABEL]
      [--dump-model FILE]

  -l SECONDS    PyVRP's MaxRuntime (default: the request's time_limit_seconds, else 10).
  --seed N      PyVRP's random seed (default 1).
  --dump-model  write the converted model (plain JSON: units, locations, clients, groups,
                vehicle types, integer matrices) to FILE and stop; needs neither pyvrp nor
                numpy (the unit test uses it).

Prints one JSON line: instance, solver ("pyvrp"), version, l, seed, total_cost (our evaluator's,
null when it refuses the plan), feasible (our evaluator accepts the plan and every customer is
served), error (its message when not), pyvrp_feasible, pyvrp_objective (PyVRP's cost over the cost
unit, for reference), routes_used, wall_s (the pyvrp.solve call only), iterations, units, warnings.
Exit status 2 when the request cannot be converted (a field PyVRP cannot model), 1 when solving
or rescoring fails.

Conversion (request -> PyVRP 0.14 ProblemData), one location per request node:
  * depots: every start or end node is a Depot without window (the windows live on the vehicle
    types, as in pyvrp-eval.py); every other node is a required client with delivery = demand,
    service duration and window.
  * duration_matrix / profiles / vehicle_profiles: one PyVRP routing profile per distinct
    (distance matrix, duration matrix) pair a vehicle drives on: its profile's matrices, a
    profile lacking one uses the request's (constraints.md); without any duration matrix,
    distance / vehicle speed. Vehicle types carry `profile=`.
  * vehicle_unit_time_costs (currency per HOUR of route duration, waiting included, under
    min_total_cost): unit_duration_cost = hourly x C / (60 T) per PyVRP time unit. PyVRP prices
    the route duration from its chosen start to the arrival at the end depot, waiting included,
    with the start chosen to make it shortest: our rule (departure delayed to remove waiting).
  * vehicle_return_to_end false (open route): the vehicle type ends at an extra depot on an extra
    location whose incoming arcs cost 0 distance and 0 duration in every profile, without window,
    so the last leg costs nothing and nothing is checked after the last stop (our rule). The end
    depot never appears in the routes written back.
  * node_time_window_sets: one client copy per window (same location, demand and service), the
    copies in a ClientGroup(required=True), which 0.14 makes mutually exclusive: exactly one copy
    is served. Each copy maps back to its customer.
  * refused (exit 2 with the reason), because PyVRP 0.14 has no equivalent or this tool does
    not model them: vehicle_breaks (PyVRP has no breaks), soft windows, max_working_hours and the
    other constraints.md fields (skip penalties, skills, pickups, shipments, reloads, release
    times, stop limits, vehicle windows, max distance, extra dimensions, initial routes, locks).

Integer units (PyVRP needs integers; each the smallest power of ten that makes the data exact):
  S per distance unit (<= 10^3, else 10^3 and rounded to nearest: it only steers),
  T per minute (<= 10^3 for travel minutes, service and windows; else 10^3 with durations and
  service and window starts rounded up, window ends down, so a plan PyVRP calls feasible is),
  C per currency unit: the least common multiple of S x U (U makes the unit distance costs
  integral), 60 T x Uh when some cost per hour is set (Uh makes them integral) and the power of
  ten that makes the fixed costs integral; distance-only objective: C = S.
  Loads: A = amt x 10^m, the first such value >= C (amt makes demands and capacities integral),
  as pyvrp-eval.py does: PyVRP's penalty bounds are absolute (0.1 .. 100000 per unit of
  excess), so a load unit should weigh about what a cost unit does.
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one thread, as the protocol asks

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESCORE = os.path.join(REPO, "bench", "peers", "rescore-pyvrp.ts")
PROJECT_NODE = os.path.join(REPO, "tools", "node", "node_modules", ".bin", "node")

MAX_VALUE = 1 << 44  # pyvrp.constants.MAX_VALUE, the largest matrix entry
TIME_CAP = 1 << 62  # "no window end"
DEFAULT_LIMIT = 10.0

# Fields PyVRP 0.14 cannot model like we do, or this tool does not convert: refused, never dropped.
REFUSED = {
    "vehicle_breaks": "PyVRP 0.14 has no breaks",
    "late_penalty_per_min": "soft windows are not expressible in PyVRP",
    "max_working_hours": "not modelled by this tool",
    "node_skip_penalties": "not modelled by this tool (pyvrp-eval.py does it for plain requests)",
    "node_skills": "not modelled by this tool",
    "vehicle_skills": "not modelled by this tool",
    "node_pickups": "not modelled by this tool",
    "pickups_after_deliveries": "not modelled by this tool",
    "shipments": "not modelled by this tool",
    "vehicle_reload_nodes": "not modelled by this tool",
    "vehicle_max_reloads": "not modelled by this tool",
    "node_release_times": "not modelled by this tool",
    "allow_unassigned": "PyVRP plans every required client",
    "vehicle_max_stops": "PyVRP 0.14 has no stop limit",
    "vehicle_time_windows": "not modelled by this tool",
    "vehicle_max_distance": "not modelled by this tool",
    "vehicle_max_working_hours": "not modelled by this tool",
    "node_extra_demands": "not modelled by this tool",
    "vehicles_extra_capacity": "not modelled by this tool",
    "initial_routes": "the comparison starts both solvers from nothing",
    "vehicle_locked_stops": "not modelled by this tool",
}


class RequestError(Exception):
    pass


def given(value):
    """Whether a field says something: not absent, null, false, 0 or only nulls / empty lists."""
    if value is None or value is False or value == 0:
        return False
    if isinstance(value, list):
        return any(given(x) for x in value)
    if isinstance(value, dict):
        return len(value) > 0
    return True


def power_factor(values, max_power):
    """Smallest power of ten (<= 10**max_power) making every value integral; (factor, exact)."""
    for p in range(max_power + 1):
        f = 10**p
        if all(abs(v * f - round(v * f)) <= 1e-9 * max(1.0, abs(v * f)) for v in values):
            return f, True
    return 10**max_power, False


def ceil_tol(x):
    """ceil, ignoring float noise just above an integer."""
    return math.ceil(x - (1e-6 + abs(x) * 1e-15))


def floor_tol(x):
    return math.floor(x + (1e-6 + abs(x) * 1e-15))


def square(m, n, what):
    if not isinstance(m, list) or len(m) != n or any(not isinstance(r, list) or len(r) != n for r in m):
        raise RequestError(f"{what} must be {n} x {n}")
    return [[float(x) for x in r] for r in m]


def convert(req):
    """The request as a plain PyVRP model (JSON-able dict); RequestError when it cannot be."""
    n, K = req.get("node_num"), req.get("vehicle_num")
    if not isinstance(n, int) or n <= 0 or not isinstance(K, int) or K <= 0:
        raise RequestError("node_num and vehicle_num must be positive integers")
    for key, why in REFUSED.items():
        if given(req.get(key)):
            raise RequestError(f"{key} is given: {why}; refused rather than approximated")
    start, end = list(req["start_nodes"]), list(req["end_nodes"])
    demand = [float(x) for x in req["node_demands"]]
    capacity = [float(x) for x in req["vehicles_capacity"]]
    depot_nodes = sorted(set(start) | set(end))
    customers = [i for i in range(n) if i not in set(depot_nodes)]
    warnings = []

    # Distances: the request's (positions or matrix), each profile's own where it has one.
    pos = req.get("node_positions")
    if isinstance(pos, list) and len(pos) == n:
        dist = [[math.hypot(a[0] - b[0], a[1] - b[1]) for b in pos] for a in pos]
    else:
        dist = square(req.get("distance_matrix"), n, "distance_matrix")
    profiles = req.get("profiles") or {}
    names = list(req.get("vehicle_profiles") or [None] * K)
    for name in names:
        if name is not None and name not in profiles:
            raise RequestError(f"vehicle_profiles names an unknown profile {name!r}")
    own_dist = {name: square(p["distance_matrix"], n, f"profiles.{name}.distance_matrix")
                for name, p in profiles.items() if p.get("distance_matrix") is not None}

    # Time: windows and service with travel minutes from a duration matrix or distance / speed.
    time_on = (req.get("node_time_windows") is not None and req.get("node_service_time") is not None
               and (req.get("vehicle_speeds") is not None or req.get("duration_matrix") is not None))
    dur = square(req["duration_matrix"], n, "duration_matrix") if time_on and req.get("duration_matrix") else None
    own_dur = {name: square(p["duration_matrix"], n, f"profiles.{name}.duration_matrix")
               for name, p in profiles.items() if time_on and p.get("duration_matrix") is not None}
    speeds = [float(s) for s in req["vehicle_speeds"]] if time_on and req.get("vehicle_speeds") else [1.0] * K

    def matrices(k):
        """(distance matrix, duration matrix or None, speed) vehicle k drives on, with a key."""
        name = names[k]
        d = own_dist.get(name, dist) if name else dist
        t = own_dur.get(name, dur) if name else dur
        s = 1.0 if t is not None else speeds[k]
        return (id(d), id(t), s), d, t, s

    profile_key = {}
    profile_mats = []
    vehicle_profile = []
    for k in range(K):
        key, d, t, s = matrices(k)
        if key not in profile_key:
            profile_key[key] = len(profile_mats)
            profile_mats.append((d, t, s))
        vehicle_profile.append(profile_key[key])

    tw = [(float(a), float(b)) for a, b in req["node_time_windows"]] if time_on else None
    svc = [float(x) for x in req["node_service_time"]] if time_on else None
    sets = req.get("node_time_window_sets") if time_on else None
    if time_on and min(a for a, _ in tw) < 0:
        raise RequestError("a window starts below 0: not modelled by this tool")

    objective = req.get("objective") or "min_total_distance"
    cost_obj = objective == "min_total_cost"
    fixed = [float(x) for x in req.get("vehicle_fixed_costs") or [0] * K] if cost_obj else [0.0] * K
    unit = [float(x) for x in req.get("vehicle_unit_distance_costs") or [1] * K] if cost_obj else [1.0] * K
    hourly = [float(x) for x in req.get("vehicle_unit_time_costs") or [0] * K] if cost_obj and time_on else [0.0] * K
    back = [x is not False for x in (req.get("vehicle_return_to_end") or [True] * K)]

    # Units.
    S, s_exact = power_factor({x for d, _t, _s in profile_mats for r in d for x in r}, 3)
    if not s_exact:
        warnings.append("distances not decimal to 3 places: rounded for PyVRP (steers only; scored exactly)")
    T, t_exact = 1, True
    if time_on:
        minutes = {x / s for _d, t, s in profile_mats for r in (t if t is not None else _d) for x in r}
        minutes |= set(svc) | {x for w in tw for x in w}
        for s in sets or []:
            minutes |= {x for w in s or [] for x in w}
        T, t_exact = power_factor(minutes, 3)
        if not t_exact:
            warnings.append("minutes not decimal to 3 places: travel and service rounded up, window "
                            "starts up and ends down for PyVRP (its feasible plans stay feasible)")
    U, u_exact = power_factor(unit, 4)
    Uh, h_exact = power_factor(hourly, 4)
    F, f_exact = power_factor(fixed, 4)
    if not (u_exact and h_exact and f_exact):
        warnings.append("a cost not decimal to 4 places: rounded for PyVRP (scored exactly)")
    C = S * U
    if any(h > 0 for h in hourly):
        C = math.lcm(C, 60 * T * Uh)
    C = math.lcm(C, F)
    amt, a_exact = power_factor(demand + capacity, 6)
    if not a_exact:
        raise RequestError("demands or capacities not decimal to 6 places: not modelled by this tool")
    A = amt
    while A < C:
        A *= 10

    def t_up(x):
        return ceil_tol(x * T)

    def t_down(x):
        return floor_tol(x * T) if x * T < TIME_CAP else TIME_CAP

    # Locations: the request's nodes, then one sink when some route is open.
    open_any = not all(back)
    sink = n if open_any else None
    locations = n + (1 if open_any else 0)
    profiles_out = []
    for d, t, s in profile_mats:
        dm = [[round(x * S) for x in r] for r in d]
        if time_on:
            src = t if t is not None else d
            tm = [[ceil_tol(x / s * T) for x in r] for r in src]
        else:
            tm = [[0] * n for _ in range(n)]
        for i in range(n):
            dm[i][i] = tm[i][i] = 0
        if open_any:
            # The sink: reached from anywhere at no distance and no time, never left.
            for r in dm + tm:
                r.append(0)
            dm.append([0] * locations)
            tm.append([0] * locations)
        if max(max(r) for r in dm + tm) > MAX_VALUE:
            raise RequestError("a matrix entry passes PyVRP's MAX_VALUE in these units")
        profiles_out.append({"distance": dm, "duration": tm})

    depots = [{"node": i, "location": i} for i in depot_nodes]
    depot_index = {i: x for x, i in enumerate(depot_nodes)}
    if open_any:
        depots.append({"node": None, "location": sink})

    clients, groups = [], []
    for i in customers:
        base = {"node": i, "location": i, "delivery": round(demand[i] * A)}
        windows = [tuple(w) for w in sets[i]] if sets and sets[i] else ([tw[i]] if time_on else [None])
        group = len(groups) if len(windows) > 1 else None
        members = []
        for w in windows:
            c = dict(base, group=group)
            if w is not None:
                early, late = t_up(w[0]), t_down(w[1])
                if late < early:
                    warnings.append(f"node {i}: window [{w[0]:g}, {w[1]:g}] holds no time after rounding")
                    late = early
                c.update(service=ceil_tol(svc[i] * T), tw_early=early, tw_late=late)
            members.append(len(clients))
            clients.append(c)
        if group is not None:
            groups.append(members)

    types = {}
    for k in range(K):
        s, e = start[k], end[k]
        kw = {"capacity": round(capacity[k] * A), "start_depot": depot_index[s],
              "end_depot": depot_index[e] if back[k] else len(depots) - 1, "profile": vehicle_profile[k],
              "fixed_cost": round(fixed[k] * C), "unit_distance_cost": round(unit[k] * C / S),
              "unit_duration_cost": round(hourly[k] * C / (60 * T))}
        if time_on:
            kw["tw_early"] = t_up(tw[s][0])
            kw["start_late"] = t_down(tw[s][1])
            if back[k]:
                kw["tw_late"] = t_down(tw[e][1])
                kw["start_late"] = min(kw["start_late"], kw["tw_late"])
            if kw["tw_early"] > kw["start_late"]:
                raise RequestError(f"vehicle {k}: no departure time fits its start/end windows")
        key = json.dumps(kw, sort_keys=True)
        types.setdefault(key, {"vehicles": [], **kw})["vehicles"].append(k)

    return {
        "units": {"distance": S, "time": T, "cost": C, "load": A},
        "locations": locations,
        "depots": depots,
        "clients": clients,
        "groups": groups,
        "vehicle_types": list(types.values()),
        "profiles": profiles_out,
        "warnings": warnings,
    }


def problem_data(model):
    """pyvrp.ProblemData for a model of convert()."""
    import numpy as np
    from pyvrp import Client, ClientGroup, Depot, Location, ProblemData, VehicleType

    locations = [Location(x=0.0, y=0.0, name=str(i)) for i in range(model["locations"])]
    depots = [Depot(location=d["location"], name=str(d["node"])) for d in model["depots"]]
    clients = []
    for c in model["clients"]:
        kw = {"location": c["location"], "delivery": [c["delivery"]], "name": str(c["node"])}
        if "tw_early" in c:
            kw.update(service_duration=c["service"], tw_early=c["tw_early"], tw_late=c["tw_late"])
        if c["group"] is not None:
            # A copy: optional on its own, the group (exactly one copy) is required.
            kw.update(required=False, group=c["group"])
        clients.append(Client(**kw))
    groups = [ClientGroup(members, required=True) for members in model["groups"]]
    types = []
    for t in model["vehicle_types"]:
        kw = {k: t[k] for k in ("start_depot", "end_depot", "profile", "fixed_cost", "unit_distance_cost",
                                "unit_duration_cost", "tw_early", "tw_late", "start_late") if k in t}
        types.append(VehicleType(num_available=len(t["vehicles"]), capacity=[t["capacity"]], **kw,
                                 name=f"vehicle {t['vehicles'][0]} x{len(t['vehicles'])}"))
    dist = [np.array(p["distance"], dtype=np.int64) for p in model["profiles"]]
    dur = [np.array(p["duration"], dtype=np.int64) for p in model["profiles"]]
    return ProblemData(locations, clients, depots, types, dist, dur, groups=groups)


def rescore(request_file, solution):
    """Our evaluator's verdict on PyVRP's routes (rescore-pyvrp.ts): its JSON line as a dict."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(solution, fh)
        path = fh.name
    try:
        node = PROJECT_NODE if os.path.exists(PROJECT_NODE) else "node"
        p = subprocess.run([node, "--import", "tsx", RESCORE, request_file, path], capture_output=True, text=True,
                           cwd=REPO, timeout=600)
        lines = p.stdout.strip().splitlines()
        if not lines:
            return {"total_cost": None, "feasible": False, "failed": True,
                    "error": f"rescore-pyvrp.ts failed: {p.stderr.strip()[:300]}"}
        return json.loads(lines[-1])
    finally:
        os.remove(path)


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description="Run PyVRP 0.14 on a travel request (see the module docstring).")
    ap.add_argument("request")
    ap.add_argument("-l", dest="limit", type=float, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default=None)
    ap.add_argument("--dump-model", default=None)
    o = ap.parse_args(argv)

    with open(o.request, encoding="utf-8") as fh:
        req = json.load(fh)
    base = os.path.basename(o.request).removesuffix(".json")
    line = {"instance": o.name or req.get("name") or base, "solver": "pyvrp", "seed": o.seed}
    try:
        model = convert(req)
    except (RequestError, KeyError, TypeError, ValueError, IndexError) as e:
        line["error"] = f"cannot convert the request: {e}"
        print(json.dumps(line))
        return 2
    if o.dump_model:
        with open(o.dump_model, "w", encoding="utf-8") as fh:
            json.dump(model, fh)
        return 0

    import warnings
    from importlib import metadata

    from pyvrp import solve
    from pyvrp.stop import MaxRuntime

    limit = o.limit
    if limit is None:
        tl = req.get("time_limit_seconds")
        limit = float(tl) if isinstance(tl, (int, float)) and tl > 0 else DEFAULT_LIMIT
    line.update(version=metadata.version("pyvrp"), l=limit)
    data = problem_data(model)
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = solve(data, stop=MaxRuntime(limit), seed=o.seed, collect_stats=False, display=False)
    except Exception as e:  # noqa: BLE001 - reported in the line
        line.update(error=f"pyvrp.solve failed: {e}", wall_s=round(time.perf_counter() - t0, 3))
        print(json.dumps(line))
        return 1
    wall = time.perf_counter() - t0
    notes = model["warnings"] + sorted({f"pyvrp {w.category.__name__}: {' '.join(str(w.message).split())}"
                                        for w in caught})
    best = res.best
    routes = [{"vehicle_type": r.vehicle_type(), "clients": [a.idx for a in r if a.is_client()]}
              for r in best.routes()]
    solution = {
        "client_node": [c["node"] for c in model["clients"]],
        "type_vehicles": [t["vehicles"] for t in model["vehicle_types"]],
        "routes": routes,
    }
    verdict = rescore(o.request, solution)
    cost = res.cost()
    line.update(
        total_cost=verdict.get("total_cost"), feasible=bool(verdict.get("feasible")), error=verdict.get("error"),
        pyvrp_feasible=bool(best.is_feasible()),
        pyvrp_objective=cost / model["units"]["cost"] if math.isfinite(cost) else None,
        routes_used=len(routes), wall_s=round(wall, 3), iterations=res.num_iterations, units=model["units"],
        warnings=notes,
    )
    print(json.dumps(line))
    return 1 if verdict.get("failed") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
