package runinfo

import (
	"os"

	"golang.org/x/sys/unix"

	"synth/config"
	"synth/rollout"
	"synth/sandbox"
)

// Reproduction records what a run's rows depend on to come out byte for
// byte the same in another build with the same config (run.json's
// "reproduction"). The config hash, synth's version and the sandbox's
// Python and packages are recorded beside it in run.json.
type Reproduction struct {
	// PythonHashSeed is the sandbox's PYTHONHASHSEED: str and bytes hashes,
	// and so set and dict orders built from them, are the same in every
	// build.
	PythonHashSeed string `json:"python_hash_seed"`
	// Seeds is how each rollout's random, numpy and PYTHONHASHSEED of its
	// subprocesses are seeded: from its id, so a rollout redone after an
	// interruption draws what it drew the first time.
	Seeds string `json:"seeds"`
	// FixedAddresses: address-space randomisation is off in the sandbox's
	// interpreters, so object addresses in printed reprs repeat. False
	// where the kernel or a container refuses it; those rows may differ.
	FixedAddresses bool `json:"fixed_addresses"`
	// SameStartHeap: every interpreter is forked from one copy of the
	// sandbox's zygote made before it served anything (its stem), so a
	// cell's objects land at the same addresses whatever ran before it in
	// the build. It takes root (or isolation off); without root the
	// interpreters are forked through a waiter from the zygote itself,
	// whose heap moves with what it served, and rows that print addresses
	// may differ.
	SameStartHeap bool `json:"same_start_heap"`
	// Zygote is the sha256 of what the sandbox's zygote runs before it
	// forks (its driver, its environment and the resident modules,
	// sandbox.ZygoteDigest of residents): they lay out the heap every
	// interpreter starts from, so a synth whose digest differs may print
	// other addresses for the same code.
	Zygote string `json:"zygote"`
	// Threads is the thread count of numpy's BLAS and OpenMP in the
	// sandbox: one, so sums reduce in one order.
	Threads int `json:"threads"`
	// ZygoteThreads names the threads the sandbox's zygote ran beside its
	// own when this build started it (synth doctor's "one thread"): none
	// with the default preload. A module of sandbox.preload that starts
	// one maps memory on the machine's timing, and rows that print an
	// address may then differ between builds.
	ZygoteThreads []string `json:"zygote_threads,omitempty"`
	// Kernel is the machine's kernel release: a different kernel may lay
	// out memory differently.
	Kernel string `json:"kernel"`
	// Teacher says whether the teacher's turns reproduce: the reference
	// teacher's do; an LLM's come from its response cache (cache/llm) and
	// are the same only while that cache is kept.
	Teacher string `json:"teacher"`
}

// ReproductionOf is what a run under cfg, in the environment py, depends on
// to reproduce.
func ReproductionOf(cfg config.Config, py PythonInfo) *Reproduction {
	rep := &Reproduction{
		PythonHashSeed: "0",
		Seeds:          "per rollout: the first 63 bits of the sha256 of its id",
		FixedAddresses: py.FixedAddresses,
		SameStartHeap:  os.Geteuid() == 0 || cfg.Sandbox.Isolation == sandbox.IsolationOff,
		Zygote:         sandbox.ZygoteDigest(rollout.Residents()),
		Threads:        1,
	}
	switch kind := cfg.Teacher.Kind; kind {
	case "openai":
		rep.Teacher = "openai: the same turns only from the same response cache (cache/llm)"
	case "":
		rep.Teacher = "reference: the same turns from the same tasks"
	default:
		rep.Teacher = kind + ": the same turns from the same tasks"
	}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		rep.Kernel = unix.ByteSliceToString(u.Release[:])
	}
	return rep
}
