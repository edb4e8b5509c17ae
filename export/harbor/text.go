package harbor

import (
	"fmt"
	"strings"

	"synth/schemas"
)

// Instruction is instruction.md: the task's query as synth's rollouts see
// it, then where the container keeps the inputs, the outputs and the
// answer that the checks read.
func Instruction(t *schemas.Task) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(t.Query))
	b.WriteString("\n\n---\n\n")
	fmt.Fprintf(&b, "Work in %s with Python 3 (pandas, numpy, matplotlib and the other usual packages are installed).\n", WorkDir)
	if len(t.Files) > 0 {
		fmt.Fprintf(&b, "The input files are under %s/data/, read-only, at the paths the task gives (./data/...).\n", WorkDir)
	}
	fmt.Fprintf(&b, "Write every file the task asks for under %s/output/, at the path it gives (./output/...).\n", WorkDir)
	fmt.Fprintf(&b, "When you are done, write your final answer, the reply you would give, to %s/%s.\n", WorkDir, AnswerFile)
	return b.String()
}

// TaskTOML is task.toml, Harbor's TaskConfig (schema 1.4): the task's
// provenance under [metadata]; a verifier in a separate container built
// from the same environment, without network; the agent as AgentUser; the
// outputs and the answer file as artifacts, which Harbor restores into the
// verifier's container at the same paths.
func TaskTOML(t *schemas.Task) string {
	files := make([]string, len(t.Files))
	for i, f := range t.Files {
		files[i] = "data/" + f.Name
	}
	var b strings.Builder
	b.WriteString("schema_version = \"1.4\"\n")
	b.WriteString("source = \"synth\"\n")
	fmt.Fprintf(&b, "artifacts = %s\n", tomlStrings([]string{WorkDir + "/output", WorkDir + "/" + AnswerFile}))
	b.WriteString("\n[metadata]\n")
	fmt.Fprintf(&b, "synth_task_id = %s\n", tomlString(t.ID))
	fmt.Fprintf(&b, "index = %s\n", tomlString(t.Index))
	fmt.Fprintf(&b, "category = %s\n", tomlString(t.Category))
	fmt.Fprintf(&b, "subcategory = %s\n", tomlString(t.Subcategory))
	fmt.Fprintf(&b, "generator = %s\n", tomlString(t.Generator))
	fmt.Fprintf(&b, "lang = %s\n", tomlString(t.Lang))
	fmt.Fprintf(&b, "files = %s\n", tomlStrings(files))
	fmt.Fprintf(&b, "has_reference = %t\n", t.Reference != nil)
	b.WriteString(`
[verifier]
timeout_sec = 600.0
environment_mode = "separate"
network_mode = "no-network"

[agent]
timeout_sec = 1800.0
`)
	fmt.Fprintf(&b, "user = %s\n", tomlString(AgentUser))
	b.WriteString(`
[environment]
build_timeout_sec = 1800.0
cpus = 1
memory_mb = 4096
`)
	return b.String()
}

// Dockerfile is the environment's: BaseImage with Debian's ffmpeg and the
// sandbox's locked packages (pip --require-hashes), the unprivileged
// AgentUser, and the inputs read-only under WorkDir/data. It holds nothing
// of the task but the data folder it copies.
func Dockerfile(hasData bool) string {
	var b strings.Builder
	b.WriteString(`# The environment of a task exported by synth: the Python packages synth's
# sandbox runs rollouts with (requirements.lock, every file pinned by hash).
FROM ` + BaseImage + `
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-cache-dir --require-hashes --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock
RUN useradd --create-home --uid 1000 ` + AgentUser + `
ENV MPLBACKEND=Agg OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0
WORKDIR ` + WorkDir + "\n")
	if hasData {
		b.WriteString("COPY data/ " + WorkDir + "/data/\n")
		b.WriteString("RUN chmod -R a+rX,go-w " + WorkDir + "/data\n")
	}
	b.WriteString("RUN mkdir -p " + WorkDir + "/output && chown " + AgentUser + ":" + AgentUser + " " + WorkDir + " " + WorkDir + "/output\n")
	return b.String()
}

// testSh is tests/test.sh: grade.py runs synth's checks and writes the reward.
const testSh = `#!/bin/bash
# Grades the trial with synth's checks library (synth_checks.py) and this
# task's checks (checks.json): writes /logs/verifier/reward.txt (1 or 0)
# and /logs/verifier/checks.json (every check's message).
exec python3 -I "$(dirname "$0")/grade.py"
`

// solveSh is solution/solve.sh: solve.py plays the reference solution.
const solveSh = `#!/bin/bash
# Plays the task's reference solution (reference.json) in the working
# directory and writes its final answer to answer.txt.
exec python3 -I "$(dirname "$0")/solve.py"
`

// readme is the export's README.md.
func readme(rep Report, opts Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Harbor tasks exported by synth\n\n%d task folders", len(rep.Tasks))
	if opts.Source != "" {
		fmt.Fprintf(&b, " from the benchmark %s", opts.Source)
	}
	b.WriteString(".\n\nEach folder is a Harbor task: instruction.md, task.toml, environment/ (Dockerfile,\n")
	b.WriteString("requirements.lock, data/), tests/ (test.sh runs synth's checks library on the trial's\n")
	b.WriteString("output/ and answer.txt and writes the reward) and solution/ (solve.sh plays the\n")
	b.WriteString("reference solution).\n")
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(&b, "\n%d benchmark tasks were left out:\n\n", len(rep.Skipped))
		for _, s := range rep.Skipped {
			fmt.Fprintf(&b, "- task %q: %s\n", s.Index, s.Reason)
		}
	}
	return b.String()
}
