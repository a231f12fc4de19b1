"""
PyVRP's iterations per CPU second: runs pyvrp-eval.py (the shared peers' converter, its path the
first argument, the rest its own arguments) with its MaxRuntime counted in this process's CPU
seconds (time.process_time) instead of wall seconds, so that PyVRP gets the computing time our
`SOLVER_CLOCK=cpu` gives ours on a shared machine. Prints pyvrp-eval's JSON line with `cpu_s`,
the CPU seconds between the stopping criterion's first and last call (the search's own time).
Used by bench/search-speed.ts, and by the side-by-side benches under SOLVER_CLOCK=cpu:
`PYTHON bench/peers/pyvrp-cpu.py ../shared/peers/pyvrp-eval.py REQUEST.json -l 10`.
"""
import contextlib
import importlib.util
import io
import json
import sys
import time

import pyvrp.stop

searched = {"first": None, "last": None}


class CpuRuntime:
    """MaxRuntime on the process's CPU clock: the search stops once it used `limit` CPU seconds."""

    def __init__(self, limit):
        self.limit = float(limit)

    def __call__(self, best_cost):
        now = time.process_time()
        if searched["first"] is None:
            searched["first"] = now
        searched["last"] = now
        return now - searched["first"] >= self.limit


def main(argv):
    spec = importlib.util.spec_from_file_location("pyvrp_eval", argv[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # pyvrp-eval imports MaxRuntime inside its main, so replacing it here is what it uses.
    pyvrp.stop.MaxRuntime = CpuRuntime
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = module.main(argv[1:])
    lines = out.getvalue().strip().splitlines()
    line = json.loads(lines[-1]) if lines else {"error": "pyvrp-eval printed nothing"}
    if searched["first"] is not None:
        line["cpu_s"] = round(searched["last"] - searched["first"], 3)
    print(json.dumps(line))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
