# Plays a synth task's reference solution (reference.json beside this
# file: its code steps in order, in one namespace, as the sandbox's
# interpreter runs them) in the task's working directory, then writes the
# reference's final answer to answer.txt, as an agent is asked to.
#
# SYNTH_WORKDIR (default /app) moves the working directory.
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "reference.json"), encoding="utf-8") as f:
    ref = json.load(f)
os.chdir(os.environ.get("SYNTH_WORKDIR", "/app"))
os.makedirs("output", exist_ok=True)
ns = {"__name__": "__main__"}
for i, step in enumerate(ref["steps"], 1):
    exec(compile(step["code"], "<reference step %d>" % i, "exec"), ns)
with open("answer.txt", "w", encoding="utf-8") as f:
    f.write(ref["answer"])
