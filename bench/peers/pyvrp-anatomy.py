"""
What one iteration of PyVRP 0.14's iterated local search does, counted: runs pyvrp-eval.py (the
shared peers' converter, its path the first argument, the rest its own arguments) and averages,
over the second half of its perturb-and-search calls (not the exhaustive ones on a new best; the
first half is the descent from the start), the local search's own statistics: operator
evaluations (one operator on one pair of nodes), applied moves and route updates. Its
MaxRuntime counts CPU seconds, as in pyvrp-cpu.py. Prints pyvrp-eval's JSON line with an
`anatomy` object of per-iteration means; the twin of bench/iteration-anatomy.ts:
`PYTHON bench/peers/pyvrp-anatomy.py ../shared/peers/pyvrp-eval.py REQUEST.json -l 10`.
"""
import contextlib
import importlib.util
import io
import json
import os
import sys

import pyvrp.search
import pyvrp.stop

calls = []
original_call = pyvrp.search.LocalSearch.__call__


def counted_call(self, solution, cost_evaluator, exhaustive=False):
    result = original_call(self, solution, cost_evaluator, exhaustive)
    if not exhaustive:
        stats = self.statistics
        calls.append((stats.num_moves, stats.num_improving, stats.num_updates))
    return result


def main(argv):
    spec = importlib.util.spec_from_file_location("pyvrp_eval", argv[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cpu_path = os.path.join(os.path.dirname(__file__), "pyvrp-cpu.py")
    cpu_spec = importlib.util.spec_from_file_location("pyvrp_cpu", cpu_path)
    cpu = importlib.util.module_from_spec(cpu_spec)
    cpu_spec.loader.exec_module(cpu)
    pyvrp.stop.MaxRuntime = cpu.CpuRuntime
    pyvrp.search.LocalSearch.__call__ = counted_call
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = module.main(argv[1:])
    lines = out.getvalue().strip().splitlines()
    line = json.loads(lines[-1]) if lines else {"error": "pyvrp-eval printed nothing"}
    later = calls[len(calls) // 2 :] or [(0, 0, 0)]
    mean = lambda k: round(sum(c[k] for c in later) / len(later), 2)
    line["anatomy"] = {
        "iterations": len(calls),
        "averaged": len(later),
        "operator_evaluations": mean(0),
        "moves_applied": mean(1),
        "route_updates": mean(2),
    }
    print(json.dumps(line))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
