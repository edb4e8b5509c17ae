"""The Python side of the synth sandbox.

Run as `python3 -c <bootstrap> <this file> zygote <config json>` with a SOCK_SEQPACKET
socket on fd 3 and, on fd 4, a pipe carrying the resident modules (a JSON list of
{"name", "source", "init"}). The zygote imports the configured modules once, runs the
resident ones into sys.modules, then for every
request (a JSON packet carrying a control socket and an output pipe) has an
interpreter forked that runs cells in its workspace: by the stem, a copy of the
zygote taken before it served anything (start_stem), or by itself where there is none:

  child -> Go  (control socket, JSON lines)  {"pid": n}         once forked (a spare)
  Go -> child                                {"ws": ..., "uid": n, "seed": n, "limits": {...}, "token": ...}
  child -> Go                                {"ready": true}    set up in its workspace
  Go -> child                                {"seq": n, "code": "..."}
                                             {"seq": n, "status": "ok"|"error", "cpu_ms": n}
                                             and, for an error, "cell_error": {"ename", "evalue", "traceback"}

Everything a cell prints, at the file-descriptor level, goes to the output
pipe between a begin and an end marker; the value of the cell's last
expression and its traceback are written there too.
"""

import ast
import builtins
import ctypes
import errno
import json
import linecache
import os
import random
import resource
import select
import signal
import _signal  # signal.signal's enum wrapping costs copy-on-write faults in a fresh fork
import socket
import struct
import sys
import time
import traceback
import warnings

ZYGOTE_FD = 3
RESIDENT_FD = 4
FIXED_ADDRESSES = False  # set by fixed_addresses() when the zygote starts

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
CLONE_NEWUSER = 0x10000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2
SYS_PIVOT_ROOT = 155  # x86_64
SYS_MOVE_MOUNT = 429
AT_FDCWD = -100
MOVE_MOUNT_F_EMPTY_PATH = 0x4
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38

libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
libc.unshare.argtypes = [ctypes.c_int]
libc.setns.argtypes = [ctypes.c_int, ctypes.c_int]
# The C library called with the GIL held, as os.fork holds it (light_fork).
libc_gil = ctypes.PyDLL(None, use_errno=True)
libc_gil.fork.restype = ctypes.c_int
libc_gil.fork.argtypes = []

FONT_CACHE = {}  # matplotlib font cache file name -> bytes, for children that import it late


def _check(rc, what):
    if rc != 0:
        e = ctypes.get_errno()
        raise OSError(e, "%s: %s" % (what, os.strerror(e)))


def mount(src, target, fstype, flags, data=None):
    enc = lambda s: s.encode() if s is not None else None
    _check(libc.mount(enc(src), enc(target), enc(fstype), flags, enc(data)), "mount %s" % target)


# statvfs flags that a remount inside a user namespace must keep (the kernel
# locks them), and their mount flags.
KEPT_FLAGS = ((os.ST_NOEXEC, MS_NOEXEC), (os.ST_NOATIME, 1024), (os.ST_NODIRATIME, 2048),
              (os.ST_RELATIME, 1 << 21))


def remount(target, readonly):
    """Remounts the bind at target nosuid, nodev and read-only or
    read-write, keeping the flags it already has."""
    flags = MS_BIND | MS_REMOUNT | MS_NOSUID | MS_NODEV
    have = os.statvfs(target).f_flag
    for st, ms in KEPT_FLAGS:
        if have & st:
            flags |= ms
    if readonly:
        flags |= MS_RDONLY
    mount(None, target, None, flags)


def bind(src, target, readonly):
    mount(src, target, None, MS_BIND | MS_REC)
    remount(target, readonly)


# ---------------------------------------------------------------- seccomp

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000
# New namespaces (user, pid, net, mount, ipc, uts, cgroup, time) by clone.
CLONE_NS_FLAGS = 0x7E020080
SYS_CLONE, SYS_CLONE3 = 56, 435
# Denied with EPERM: namespaces, mounts, tracing, kernel keys, BPF, perf,
# userfaultfd, modules, kexec, io_uring, raw I/O, clocks, reboot and swap.
DENIED_SYSCALLS = {
    "ptrace": 101, "syslog": 103, "vhangup": 153, "pivot_root": 155,
    "adjtimex": 159, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "iopl": 172, "ioperm": 173,
    "init_module": 175, "delete_module": 176, "quotactl": 179, "nfsservctl": 180,
    "lookup_dcookie": 212, "clock_settime": 227, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "unshare": 272, "perf_event_open": 298,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308,
    "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "finit_module": 313,
    "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438,
    "mount_setattr": 442,
}
SYS_SECCOMP = 317
SECCOMP_SET_MODE_FILTER = 1
# Without it the kernel turns on speculative-store-bypass mitigation for a
# filtered process, which makes every interpreter several times slower;
# the sandbox's isolation does not rest on it.
SECCOMP_FILTER_FLAG_SPEC_ALLOW = 4
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000
BPF_LD_W_ABS, BPF_JEQ_K, BPF_JGE_K, BPF_JSET_K, BPF_RET_K = 0x20, 0x15, 0x35, 0x45, 0x06


def seccomp_program():
    """The filter, as (code, jt, jf, k) tuples with jumps resolved: EPERM for
    DENIED_SYSCALLS, for clone with a namespace flag and for x32 calls;
    ENOSYS for clone3 (its flags are out of the filter's reach, so libc
    falls back to clone); everything else allowed. Another architecture
    than x86_64 kills the process."""
    prog, jumps = [], []  # jumps: (index, true label, false label)

    def op(code, k, jt=None, jf=None):
        jumps.append((len(prog), jt, jf))
        prog.append([code, 0, 0, k])

    op(BPF_LD_W_ABS, 4)
    op(BPF_JEQ_K, AUDIT_ARCH_X86_64, None, "kill")
    op(BPF_LD_W_ABS, 0)
    op(BPF_JGE_K, X32_SYSCALL_BIT, "eperm")
    for nr in sorted(DENIED_SYSCALLS.values()):
        op(BPF_JEQ_K, nr, "eperm")
    op(BPF_JEQ_K, SYS_CLONE3, "enosys")
    op(BPF_JEQ_K, SYS_CLONE, None, "allow")
    op(BPF_LD_W_ABS, 16)  # clone's flags: the low half of args[0]
    op(BPF_JSET_K, CLONE_NS_FLAGS, "eperm")
    labels = {}
    for name, k in (("allow", SECCOMP_RET_ALLOW), ("eperm", SECCOMP_RET_ERRNO | errno.EPERM),
                    ("enosys", SECCOMP_RET_ERRNO | errno.ENOSYS), ("kill", SECCOMP_RET_KILL_PROCESS)):
        labels[name] = len(prog)
        op(BPF_RET_K, k)
    for i, jt, jf in jumps:
        for slot, label in ((1, jt), (2, jf)):
            if label is not None:
                prog[i][slot] = labels[label] - i - 1
    return prog


SECCOMP_FPROG = []  # the filter as a ctypes sock_fprog, built once by the zygote


def build_seccomp():
    """Builds the filter in the zygote, so that forks only load it."""
    if os.uname().machine != "x86_64":
        return
    prog = seccomp_program()

    class SockFilter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(SockFilter))]

    arr = (SockFilter * len(prog))(*[SockFilter(*ins) for ins in prog])
    SECCOMP_FPROG[:] = [SockFprog(len(prog), arr), arr]


def install_seccomp():
    """Loads the filter into this process (no_new_privs must be set); its
    children inherit it. Returns False where the architecture is not
    x86_64."""
    if not SECCOMP_FPROG:
        return False
    _check(libc.syscall(SYS_SECCOMP, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW,
                        ctypes.byref(SECCOMP_FPROG[0])), "seccomp")
    return True


# ---------------------------------------------------------------- the cell loop


def marker(token, seq, kind):
    return ("\x00\x1esynth:%s:%d:%s\x1e\x00" % (token, seq, kind)).encode()


def input_disabled(prompt=""):
    raise RuntimeError(
        "input() is not available in the sandbox: there is no user to type an answer; "
        "set the value in the code instead"
    )


EXIT_CPU_LIMIT = 152


def cpu_limit_reached(signum, frame):
    # As pid 1 of its namespace the interpreter would ignore SIGXCPU's
    # default action, so it ends itself.
    flush_all()
    os._exit(EXIT_CPU_LIMIT)


LIMITS = {}  # this interpreter's limits, for the notes below


def limit_note(exc):
    """Names the sandbox limit behind an exception, if one is."""
    def size(n):
        for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
            if n >= k:
                return "%g %s" % (round(n / k, 1), unit)
        return "%d bytes" % n
    if isinstance(exc, MemoryError) and LIMITS.get("memory"):
        return "the sandbox's memory limit is %s of address space" % size(LIMITS["memory"])
    if isinstance(exc, OSError):
        if exc.errno == errno.EFBIG and LIMITS.get("file"):
            return "the sandbox's file size limit is %s" % size(LIMITS["file"])
        if exc.errno == errno.EMFILE and LIMITS.get("open_files"):
            return "the sandbox's limit is %d open files" % LIMITS["open_files"]
        if exc.errno == errno.EAGAIN and LIMITS.get("own_uid"):
            return "the sandbox's limit is %d processes and threads" % LIMITS["processes"]
        if exc.errno == errno.ENOSPC:
            return "the disk or the sandbox's /tmp is full"
    return ""


DRIVER_FILE = "<synth-driver>"  # the file name this code is compiled under


def without_driver(te):
    """Drops the driver's frames from a TracebackException and its chain."""
    seen = set()
    while te is not None and id(te) not in seen:
        seen.add(id(te))
        frames = [f for f in te.stack if f.filename != DRIVER_FILE]
        te.stack = traceback.StackSummary.from_list(frames[-30:])
        for chained in (te.__cause__, te.__context__):
            if chained is not None:
                without_driver(chained)
        te = None


def trimmed_traceback(exc):
    """The cell's traceback: from its first frame in the cell, without the
    driver's frames, at most 30 frames and 8000 characters."""
    tb = exc.__traceback__
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith("<cell-"):
        tb = tb.tb_next
    te = traceback.TracebackException(type(exc), exc, tb)
    without_driver(te)
    text = "".join(te.format())
    if len(text) > 8000:
        text = text[:3000] + "\n... (traceback trimmed) ...\n" + text[-4000:]
    note = limit_note(exc)
    if note:
        text += "[sandbox: %s]\n" % note
    return text


def cell_error(exc, text):
    """What a notebook client sees of a cell's error: the exception's class
    name and its str(), as Jupyter's ename and evalue, and the traceback text
    written to the output."""
    try:
        value = str(exc)
    except BaseException:
        value = "<unprintable %s>" % type(exc).__name__
    return {"ename": type(exc).__name__, "evalue": value, "traceback": text}


def run_cell(code, g, seq):
    """Runs one cell in globals g; returns "ok" or "error", and the error."""
    name = "<cell-%d>" % seq
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    try:
        tree = ast.parse(code, name)
    except (SyntaxError, ValueError) as e:
        text = "".join(traceback.format_exception_only(type(e), e))
        sys.stderr.write(text)
        return "error", cell_error(e, text)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not silenced(code, tree.body[-1]):
        last = ast.Expression(tree.body.pop().value)
    try:
        exec(compile(tree, name, "exec"), g)
        if last is not None:
            value = eval(compile(last, name, "eval"), g)
            if value is not None:
                g["_"] = value
                sys.stdout.write(repr(value) + "\n")
    except SystemExit as e:
        code = e.code
        text = "SystemExit: %s\n" % ("" if code is None else code)
        sys.stderr.write(text)
        return ("ok", None) if code in (None, 0) else ("error", cell_error(e, text))
    except BaseException as e:  # the cell's own error, reported as an observation
        text = trimmed_traceback(e)
        sys.stderr.write(text)
        return "error", cell_error(e, text)
    return "ok", None


def silenced(code, stmt):
    """As in Jupyter, a trailing semicolon hides the last expression's value."""
    lines = code.splitlines()
    if stmt.end_lineno is None or stmt.end_lineno > len(lines):
        return False
    return lines[stmt.end_lineno - 1][stmt.end_col_offset:].lstrip().startswith(";")


def flush_all():
    for f in (sys.stdout, sys.stderr):
        try:
            f.flush()
        except Exception:
            pass
    try:
        libc.fflush(None)
    except Exception:
        pass


# Globals every cell finds beside __name__: the __synth_globals__ of the
# resident modules (a template's inputs, template.py), set by load_residents.
CELL_GLOBALS = {}


def serve(rf, ctl, out_fd, token):
    g = {"__name__": "__main__", "__builtins__": builtins}
    g.update(CELL_GLOBALS)
    me = os.getpid()
    for line in rf:
        req = json.loads(line)
        seq = req["seq"]
        os.write(out_fd, marker(token, seq, "B"))
        t0 = os.times()
        status, error = run_cell(req["code"], g, seq)
        flush_all()
        if os.getpid() != me:  # a process the cell forked fell off its end
            os._exit(0)
        t1 = os.times()
        cpu = (t1.user + t1.system + t1.children_user + t1.children_system) - (
            t0.user + t0.system + t0.children_user + t0.children_system)
        os.write(out_fd, marker(token, seq, "E"))
        reply = {"seq": seq, "status": status, "cpu_ms": int(cpu * 1000)}
        if error is not None:
            reply["cell_error"] = error
        ctl.sendall((json.dumps(reply) + "\n").encode())
    os._exit(0)


# ---------------------------------------------------------------- child setup


def prepare_root(req):
    """Before the assignment (as a spare): makes a private root holding the
    system read-only, /dev and /proc, and pivots into it (build_root, then
    enter_root)."""
    build_root(req)
    enter_root(req)


def build_root(req):
    """Makes the private root, the same for every interpreter of a backend,
    and pivots into it. The old root is dropped now (its lazy unmount can
    take milliseconds) unless the kernel cannot hand over the workspace as a
    detached mount, in which case it stays at /oldroot until the workspace
    is bound from it."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    root = "/tmp"
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    for d in ("usr", "etc", "dev", "proc", "tmp", "workspace", "oldroot"):
        os.mkdir(os.path.join(root, d))
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = "/" + name
        if os.path.islink(host):
            os.symlink(os.readlink(host), os.path.join(root, name))
        elif os.path.isdir(host):
            os.mkdir(os.path.join(root, name))
            bind(host, os.path.join(root, name), True)
    bind("/usr", root + "/usr", True)
    bind("/etc", root + "/etc", True)
    for extra in req.get("ro_paths") or []:
        if os.path.isdir(extra) and not extra.startswith("/usr/"):
            target = root + extra
            os.makedirs(target, exist_ok=True)
            bind(extra, target, True)
    for path in req.get("hide") or []:
        target = root + path
        if os.path.isfile(target):
            mount("/dev/null", target, None, MS_BIND)
    # /dev: a few harmless devices.
    mount("tmpfs", root + "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=0755")
    for dev in ("null", "zero", "full", "random", "urandom"):
        path = root + "/dev/" + dev
        open(path, "w").close()
        mount("/dev/" + dev, path, None, MS_BIND)
    os.mkdir(root + "/dev/shm")
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, root + "/dev/" + name)
    os.chdir(root)
    _check(libc.syscall(SYS_PIVOT_ROOT, b".", b"oldroot"), "pivot_root")
    os.chdir("/")
    if not req.get("keep_oldroot"):
        drop_oldroot()


def enter_root(req):
    """Mounts what is the interpreter's own in the private root: /dev/shm,
    and /proc for its pid namespace; names its host and brings up its
    loopback."""
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,nr_inodes=1024,mode=1777")
    try:
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    except OSError:
        if not req.get("userns"):
            raise
        # In a user namespace the kernel refuses a new proc where the host's
        # is partly hidden (containers): go without /proc rather than show
        # the host's.
    try:
        socket.sethostname("sandbox")
    except OSError:
        pass
    loopback_up()


# Mount namespaces whose root is a private root made by build_root, one per
# kind of fork request, as fds held by the zygote.
ROOT_TEMPLATES = {}


def root_template(req):
    """Returns an fd of a mount namespace holding the private root for req,
    made once by a short-lived fork of the zygote: an interpreter joins a
    copy of it (join_root) instead of mounting and pivoting its own. The
    template's root and /dev are read-only, so interpreters share nothing
    writable through it; each still mounts its own /dev/shm, /proc, /tmp
    and workspace. Returns None where it cannot be made (the caller builds
    the root in the interpreter, as before)."""
    if req.get("keep_oldroot") or req.get("userns"):
        return None
    key = json.dumps([req.get("ro_paths"), req.get("hide")])
    if key in ROOT_TEMPLATES:
        return ROOT_TEMPLATES[key]
    r, w = os.pipe()
    hold_r, hold_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.close(hold_w)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            _check(libc.unshare(CLONE_NEWNS), "unshare")
            build_root(req)
            mount(None, "/dev", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)
            os.write(w, b"k")
            os.read(hold_r, 1)  # until the zygote holds the namespace
        finally:
            os._exit(0)
    os.close(w)
    os.close(hold_r)
    fd = None
    try:
        if os.read(r, 1) == b"k":
            fd = os.open("/proc/%d/ns/mnt" % pid, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        pass
    finally:
        os.close(r)
        os.close(hold_w)
        os.waitpid(pid, 0)
    if fd is not None and not can_join(fd):
        os.close(fd)
        fd = None
    ROOT_TEMPLATES[key] = fd
    return fd


def can_join(fd):
    """Reports whether a fork can join a copy of the template fd."""
    pid = os.fork()
    if pid == 0:
        try:
            join_root(fd)
            os.stat("/usr/bin")
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def join_root(fd):
    """Moves this process into a copy of a root template's mount namespace,
    at its root."""
    _check(libc.setns(fd, CLONE_NEWNS), "setns mount namespace")
    _check(libc.unshare(CLONE_NEWNS), "unshare mount namespace")
    os.chdir("/")


def drop_oldroot():
    """Detaches the old root and makes the private root read-only."""
    _check(libc.umount2(b"/oldroot", MNT_DETACH), "umount old root")
    os.rmdir("/oldroot")
    mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def finish_root(ws, tree_fd, req):
    """At the assignment: attaches the workspace at /workspace (data/
    read-only) and mounts a private /tmp. tree_fd is the workspace as a
    detached mount made by Go (open_tree); without it, the workspace is bound
    from the old root, which is then dropped."""
    if tree_fd is not None:
        _check(libc.syscall(SYS_MOVE_MOUNT, tree_fd, b"", AT_FDCWD, b"/workspace", MOVE_MOUNT_F_EMPTY_PATH),
               "move_mount workspace")
        os.close(tree_fd)
    else:
        mount("/oldroot" + ws, "/workspace", None, MS_BIND | MS_REC)
    remount("/workspace", False)
    data = "/workspace/data"
    if os.path.isdir(data) and not os.path.islink(data):
        bind(data, data, True)
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
          "size=%d,nr_inodes=%d,mode=1777" % (req.get("tmp_bytes") or 256 << 20, req.get("inodes") or 20000))
    if tree_fd is None:
        drop_oldroot()


def loopback_up():
    """Brings up lo in the child's own network namespace, so a cell can talk
    to servers it starts itself; the host's loopback stays out of reach."""
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    import fcntl
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        ifr = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, ifr))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))
    except OSError:
        pass
    finally:
        s.close()


def set_limits(lim):
    def setl(res, v, hard=None):
        if v and v > 0:
            resource.setrlimit(res, (v, hard if hard else v))
    setl(resource.RLIMIT_AS, lim.get("memory"))
    cpu = lim.get("cpu")
    if cpu:
        setl(resource.RLIMIT_CPU, cpu, cpu + 1)
    setl(resource.RLIMIT_FSIZE, lim.get("file"))
    setl(resource.RLIMIT_NOFILE, lim.get("open_files"))
    if lim.get("own_uid"):
        # RLIMIT_NPROC counts every process of the uid: only with a uid of
        # the interpreter's own is it a per-sandbox limit.
        setl(resource.RLIMIT_NPROC, lim.get("processes"))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def reseed(seed):
    random.seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:
        np.random.seed(seed % (1 << 32))


def child_env(req, home):
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp" if req["ns"] else os.environ.get("TMPDIR", "/tmp"),
        "MPLBACKEND": "Agg",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "JE_ARROW_MALLOC_CONF": "background_thread:false",  # as the zygote's (zygote.go)
        "PYTHONHASHSEED": str(req["seed"] % (1 << 32)),
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "QT_QPA_PLATFORM": "offscreen",  # Qt windows (cv2.imshow) need no display
    }
    if req["ns"]:
        env["MPLCONFIGDIR"] = "/tmp/.matplotlib"
    else:
        env["MPLCONFIGDIR"] = os.path.join(req["ws"], ".matplotlib")
    return env


ZYGOTE_ENV = {}  # the environment zygote_env set, as a plain dict


def settle_env(env):
    """Makes os.environ hold exactly env, changing only what differs: each
    change is a setenv in the C library, which in a fresh fork writes to
    pages shared with the zygote (the zygote sets the common part once,
    zygote_env). What is there is read from ZYGOTE_ENV once the zygote set
    it: walking os.environ decodes every name and value in Python, which in
    a fresh fork costs more than the one change."""
    have = ZYGOTE_ENV or dict(os.environ)
    for k in [k for k in have if k not in env]:
        del os.environ[k]
    for k, v in env.items():
        if have.get(k) != v:
            os.environ[k] = v


def zygote_env():
    """Sets the zygote's environment to what interpreters with namespaces
    get, all but their seed, once its modules are loaded, so that each fork
    changes one variable rather than all; nothing changes it after."""
    env = child_env({"ns": True, "seed": 0, "ws": "/workspace"}, "/tmp")
    settle_env(env)
    ZYGOTE_ENV.update(env)


def read_assignment(ctl):
    """Reads the assignment line and the file descriptors sent with it."""
    buf, fds = b"", []
    while not buf.endswith(b"\n"):
        msg, got, _, _ = socket.recv_fds(ctl, 1 << 16, 2)
        if not msg:
            os._exit(0)
        buf += msg
        fds += got
    return buf, fds


# An assignment as Go sends it (child.go, assignment), for rehearse.
ASSIGNMENT_SHAPE = json.dumps({
    "ws": "/tmp/synth-ws-0000000-0000000000000000", "uid": 1000000, "seed": 0, "token": "0" * 32,
    "tmp_bytes": 1, "inodes": 1, "seccomp": True,
    "limits": {"memory": 1, "cpu": 1, "file": 1, "open_files": 1, "processes": 1, "own_uid": 1}})


def rehearse(req):
    """Runs, while a fork waits as a spare, what its assignment will run,
    on nothing: the first run of a function in a fork writes to pages it
    shares with the zygote (reference counts, the interpreter's inline
    caches), and each such page is copied then. Copied now, they cost the
    spare's wait rather than the claim; on a virtual machine whose host
    reclaims free memory, a copy into a page not touched for a while costs
    some 10 us. Seeding, parsing the assignment and the mounts' Python code
    (run beneath /dev/null, where each call fails and makes nothing) are
    most of them."""
    reseed(0)
    json.loads(ASSIGNMENT_SHAPE)
    if not req["ns"]:
        return
    nowhere = "/dev/null/nowhere"
    os.path.isdir(nowhere)
    os.path.islink(nowhere)
    for call in (lambda: remount(nowhere, False), lambda: mount(None, nowhere, None, 0),
                 lambda: os.makedirs(nowhere + "/x", exist_ok=True)):
        try:
            call()
        except OSError:
            pass


def become_child(req, ctl, out_fd, parent, go_ahead=False):
    """Turns a fresh fork into a cell interpreter; never returns. What does
    not depend on the sandbox is done first; then the fork waits, as a spare,
    until Go assigns it a workspace, a uid, a seed and limits. parent, when
    set, is an fd that turns readable or hangs up once the process whose
    death must end this one is gone: the waiter's pipe (with go_ahead, read
    first: the waiter writes a byte once it reported the pid) or the
    zygote's pidfd."""
    try:
        if go_ahead:
            os.read(parent, 1)  # the waiter keeps its end open while it lives
        os.setsid()
        if req.get("root_joined"):
            enter_root(req)
        elif req["ns"]:
            prepare_root(req)
        # Output: fds 1 and 2 share the pipe, so the order of writes is kept.
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        marker_fd = os.dup(out_fd)  # survives a cell that closes fd 1
        os.set_inheritable(marker_fd, False)
        os.close(out_fd)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False,
                          buffering=1, newline="\n")
        sys.stdout.reconfigure(write_through=True)
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False,
                          buffering=1, newline="\n")
        sys.stderr.reconfigure(write_through=True)
        sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
        builtins.input = input_disabled
        sys.argv = [""]
        _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)
        _signal.signal(_signal.SIGXCPU, cpu_limit_reached)

        rf = ctl.makefile("rb")
        rehearse(req)
        line, fds = read_assignment(ctl)
        req = dict(req, **json.loads(line))
        if req["ns"]:
            finish_root(req["ws"], fds[0] if fds else None, req)
            ws = "/workspace"
        else:
            ws = req["ws"]
        os.chdir(ws)
        env = child_env(req, "/tmp" if req["ns"] else ws)
        settle_env(env)
        os.makedirs(env["MPLCONFIGDIR"], exist_ok=True)
        if "matplotlib" not in sys.modules:
            for name, data in FONT_CACHE.items():
                with open(os.path.join(env["MPLCONFIGDIR"], name), "wb") as f:
                    f.write(data)
        LIMITS.update(req.get("limits") or {})
        set_limits(LIMITS)
        uid = req.get("uid") or 0
        if uid:
            os.chown(env["MPLCONFIGDIR"], uid, uid)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
        if parent is not None:
            if uid:
                # Changing uid cleared the parent-death signal: set it again,
                # and make sure the parent did not die in between.
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
                if parent_gone(parent):
                    os._exit(0)
            os.close(parent)
        sec = bool(req.get("seccomp")) and install_seccomp()
        reseed(req["seed"])
        ctl.sendall((json.dumps({"ready": True, "seccomp": sec}) + "\n").encode())
    except BaseException as e:
        try:
            ctl.sendall((json.dumps({"error": "sandbox setup: %s" % e}) + "\n").encode())
        finally:
            os._exit(70)
    try:
        serve(rf, ctl, marker_fd, req["token"])
    finally:
        os._exit(0)


def enter_userns(flags):
    """Without root: a user namespace in which synth's uid is root, owning
    the other namespaces."""
    uid, gid = os.getuid(), os.getgid()
    _check(libc.unshare(CLONE_NEWUSER | flags), "unshare")
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/uid_map", "w") as f:
        f.write("0 %d 1" % uid)
    with open("/proc/self/gid_map", "w") as f:
        f.write("0 %d 1" % gid)


def die_with_parent(parent):
    """SIGKILL this process when its parent dies (so that no interpreter
    outlives synth); exits at once if the parent is already gone."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(0)


def parent_gone(fd):
    """Reports whether fd, a pidfd or the read end of a pipe, says its
    process has ended."""
    p = select.poll()
    p.register(fd, select.POLLIN | select.POLLHUP)
    return bool(p.poll(0))


# The zygote's own pid namespace and a pidfd of the zygote, opened by the
# zygote when it can fork interpreters straight into new pid namespaces
# (spawn_pid1).
ZYGOTE_FDS = {}


def leave_zygote(zsock, wake_fds, keep=()):
    """In a fresh fork of the zygote: closes what only the zygote uses."""
    zsock.close()
    stem = [STEM.get(k) for k in ("ops", "pids", "dead")] + list(STEM_LIVE)
    if STEM.get("hand") is not None:
        stem.append(STEM["hand"].detach())  # a fork holding it could hand the stem's forks requests
    for fd in list(wake_fds) + list(ZYGOTE_FDS.values()) + list(ROOT_TEMPLATES.values()) + stem:
        if fd is not None and fd not in keep:
            os.close(fd)
    if ZPOLL is not None:
        ZPOLL.close()
    signal.set_wakeup_fd(-1)
    _signal.signal(_signal.SIGCHLD, _signal.SIG_DFL)


def spawn(req, fds, zsock, wake_fds):
    """Forks the interpreter for one request: from the stem where there is
    one and the request needs no user namespace (spawn_from_stem), so that
    it starts from the same heap as every other. Else, from the zygote:
    with namespaces and root, straight into a new pid namespace (spawn_pid1).
    Otherwise (in a user namespace, or where the zygote cannot return to its
    own pid namespace), a waiter process unshares and forks the interpreter
    as pid 1 of a new pid namespace, reports both pids, and waits for it,
    exiting with its status (128 + signal when killed); the zygote reports
    the waiter's end. Each dies with its parent, so killing the zygote ends
    every interpreter."""
    if spawn_from_stem(req, fds):
        return None
    if req["ns"] and not req.get("userns") and ZYGOTE_FDS:
        pid = spawn_pid1(req, fds, zsock, wake_fds)
        if pid:
            return pid
    ctl_fd, out_fd = fds
    zygote_pid = os.getpid()
    pid = os.fork()
    if pid:
        os.close(ctl_fd)
        os.close(out_fd)
        return pid
    try:
        die_with_parent(zygote_pid)
        leave_zygote(zsock, wake_fds)
        os.set_inheritable(ctl_fd, False)
        ctl = socket.socket(fileno=ctl_fd)
        if not req["ns"]:
            ctl.sendall((json.dumps({"pid": os.getpid()}) + "\n").encode())
            become_child(req, ctl, out_fd, None)
        flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID
        if req.get("userns"):
            enter_userns(flags)
        else:
            _check(libc.unshare(flags), "unshare")
        r, w = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(w)
            die_with_parent(None)
            become_child(req, ctl, out_fd, r, go_ahead=True)
        os.close(r)
        ctl.sendall((json.dumps({"pid": child, "waiter": os.getpid()}) + "\n").encode())
        ctl.close()
        os.close(out_fd)
        os.write(w, b"x")
        _, status = os.waitpid(child, 0)
    except BaseException as e:
        try:
            ctl.sendall((json.dumps({"error": "sandbox fork: %s" % e}) + "\n").encode())
        except Exception:
            pass
        os._exit(71)
    if os.WIFSIGNALED(status):
        os._exit(128 + os.WTERMSIG(status))
    os._exit(os.WEXITSTATUS(status))


def light_fork():
    """Forks with the C library's fork(2), holding the GIL as os.fork does,
    but without what os.fork does around it for a process that may have
    other threads: CPython resetting its locks and thread states in the
    child, and the callbacks modules register with os.register_at_fork
    (threading's rebuilds its table of threads, random's reseeds, logging's
    resets its locks). In a fork of the zygote those cost about 1 ms of
    copy-on-write faults, and they matter only where another thread could
    hold a lock or be listed as alive. So this is used only while the
    zygote has a single thread, as it does (numpy's BLAS is held to one
    thread); otherwise it is os.fork. Each interpreter reseeds random and
    numpy from its assignment (reseed), not from the fork."""
    try:
        single = len(os.listdir("/proc/self/task")) == 1
    except OSError:
        single = False
    if not single:
        return os.fork()
    pid = libc_gil.fork()
    if pid < 0:
        e = ctypes.get_errno()
        raise OSError(e, "fork: " + os.strerror(e))
    return pid


def spawn_pid1(req, fds, zsock, wake_fds):
    """Forks the interpreter as pid 1 of a new pid namespace, straight from
    the zygote: the zygote unshares CLONE_NEWPID, which places its next
    child in a new namespace, forks, and returns to its own namespace for
    the children after. One fork of the zygote per interpreter (with a
    waiter, two), and no waiter to tear down: the zygote reaps the
    interpreter and reports its end. Returns 0, having forked nothing, when
    the kernel refuses the namespace; the caller then uses a waiter."""
    ctl_fd, out_fd = fds
    template = root_template(req)
    if libc.unshare(CLONE_NEWPID) != 0:
        for fd in ZYGOTE_FDS.values():
            os.close(fd)
        ZYGOTE_FDS.clear()
        return 0
    pid = -1
    try:
        pid = light_fork()
    finally:
        if pid != 0 and libc.setns(ZYGOTE_FDS["pidns"], CLONE_NEWPID) != 0:
            os._exit(1)  # the zygote's children would share one namespace: Go starts a new zygote
    if pid:
        try:
            os.write(ctl_fd, (json.dumps({"pid": pid}) + "\n").encode())
        except OSError:
            pass
        os.close(ctl_fd)
        os.close(out_fd)
        return pid
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        zygote_fd = ZYGOTE_FDS["pidfd"]
        leave_zygote(zsock, wake_fds, keep=(zygote_fd, template))
        if parent_gone(zygote_fd):
            os._exit(0)
        os.set_inheritable(ctl_fd, False)
        ctl = socket.socket(fileno=ctl_fd)
        if template is None:
            _check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
        else:
            _check(libc.unshare(CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
            join_root(template)
            os.close(template)
            req = dict(req, root_joined=True)
        become_child(req, ctl, out_fd, zygote_fd)
    except BaseException as e:
        try:
            os.write(ctl_fd, (json.dumps({"error": "sandbox fork: %s" % e}) + "\n").encode())
        except Exception:
            pass
    os._exit(71)


# ---------------------------------------------------------------- the stem

# In the zygote: its ends of the channels to the stem (start_stem), empty
# when there is none. In the stem and its forks: the stem's ends.
STEM = {}
STEM_LIVE = {}  # in the zygote: pidfd -> pid of each interpreter the stem forked

STEM_PID_NS = b"p"  # fork an interpreter into a new pid namespace
STEM_PLAIN = b"f"   # fork an interpreter in the stem's own (no isolation)
STEM_REAP = b"r"    # reap the interpreters that ended and report them
STEM_COLLAPSE = b"h"  # move the stem's heap into huge pages (heap_ranges)


def start_stem(zsock, heap, collapse):
    """Forks the stem, the process every interpreter is forked from. The
    zygote's heap changes as it serves: each request it parses, each death
    it reports, in whatever order the machine's timing gives, leaves blocks
    elsewhere in the allocator's free lists and moves the collector's
    counts, and a fork inherits that, so the same cell in two interpreters
    could print two object addresses (<PIL.Image.Image ... at 0x7FFF...>).
    The stem is a copy of the zygote made once, before it served anything,
    that does nothing but fork: it reads one byte per fork from a pipe,
    forks, and writes the new pid back, its loop allocating nothing that
    outlives an iteration; it reaps its interpreters only when the zygote
    asks (the zygote watches their pidfds) and writes their status back.
    So every interpreter starts from the same heap. The request and the
    interpreter's descriptors reach the interpreter itself, after the fork,
    over a socket from the zygote; the interpreter reports its own pid.
    Returns whether the stem runs."""
    ops_r, ops_w = os.pipe()
    pids_r, pids_w = os.pipe()
    dead_r, dead_w = os.pipe()
    hand_z, hand_s = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    zygote_pid = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != zygote_pid:
                os._exit(0)
            zsock.close()
            hand_z.close()
            for fd in (ops_w, pids_r, dead_r):
                os.close(fd)
            if "pidfd" in ZYGOTE_FDS:  # the interpreters' parent is the stem
                os.close(ZYGOTE_FDS["pidfd"])
            ZYGOTE_FDS["pidfd"] = os.pidfd_open(os.getpid())
            STEM.update(ops=ops_r, pids=pids_w, dead=dead_w, hand=hand_s)
            op = stem_loop(ops_r, pids_w, dead_w, ZYGOTE_FDS.get("pidns", -1), heap, collapse)
        except BaseException:
            os._exit(1)
        stem_child(op)
    os.close(ops_r)
    os.close(pids_w)
    os.close(dead_w)
    hand_s.close()
    STEM.update(pid=pid, ops=ops_w, pids=pids_r, dead=dead_r, hand=hand_z)
    return True


def stem_loop(ops, pids, dead, pidns, heap, collapse):
    """The stem's life. Returns only in a fresh fork, the op it was made
    for; the stem itself exits when the zygote is gone. Everything the loop
    calls is bound before it starts; what an iteration allocates (the pid,
    the bytes written) it frees before the next."""
    read, write, fork, unshare, setns = os.read, os.write, libc_gil.fork, libc.unshare, libc.setns
    no_pidns = (-2).to_bytes(4, "little", signed=True)  # a failed fork writes -1
    record = struct.Struct("ii").pack  # struct.pack would cache its format at the first reap
    waitpid, status = libc.waitpid, ctypes.c_int(0)
    waitpid.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    # One fork and one reap before the first request, through the code the
    # loop runs, so that the first interpreter is forked from the state
    # every later one is: without the reap, the first interpreter started
    # with one more block than those forked after the first reap.
    pid = fork()
    if pid == 0:
        os._exit(0)
    pid.to_bytes(4, "little", signed=True)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # ended, not yet reaped
    sink_r, sink_w = os.pipe()
    reap_into(sink_w, record, waitpid, status)
    os.read(sink_r, 8)
    os.close(sink_r)
    os.close(sink_w)
    while True:
        op = read(ops, 1)  # one-byte bytes objects are CPython's own constants
        if op == STEM_REAP:
            reap_into(dead, record, waitpid, status)
            continue
        if op == STEM_COLLAPSE:
            collapse(heap)
            continue
        if op == STEM_PID_NS:
            if unshare(CLONE_NEWPID) != 0:
                write(pids, no_pidns)
                continue
        elif op != STEM_PLAIN:
            os._exit(0)
        pid = fork()
        if pid == 0:
            return op
        if op == STEM_PID_NS and setns(pidns, CLONE_NEWPID) != 0:
            os._exit(1)  # the next interpreter would share this one's namespace
        write(pids, pid.to_bytes(4, "little", signed=True))


def reap_into(fd, record, waitpid, status):
    """In the stem: reaps every interpreter that ended and writes its pid
    and wait status to fd, 8 bytes each (record packs them). waitpid is the
    C library's, status its c_int: os.waitpid would make a tuple, kept on
    CPython's free list, and raise an exception once no child is left."""
    while True:
        pid = waitpid(-1, status, os.WNOHANG)
        if pid <= 0:
            return
        os.write(fd, record(pid, status.value))


def stem_child(op):
    """In a fresh fork of the stem: takes a request and its descriptors
    (control socket, output pipe and, with a root template, its mount
    namespace) from the zygote, reports its pid on the control socket and
    becomes the interpreter, as spawn_pid1's fork does. Never returns."""
    ctl_fd = None
    try:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        parent = ZYGOTE_FDS["pidfd"]
        if parent_gone(parent):
            os._exit(0)
        hand = STEM["hand"]
        msg, fds, _, _ = socket.recv_fds(hand, 1 << 16, 3)
        if not msg or len(fds) < 2:
            os._exit(0)
        hand.close()
        for fd in (STEM["ops"], STEM["pids"], STEM["dead"]):
            os.close(fd)
        if "pidns" in ZYGOTE_FDS:
            os.close(ZYGOTE_FDS["pidns"])
        ctl_fd, out_fd = fds[0], fds[1]
        template = fds[2] if len(fds) > 2 else None
        req = json.loads(msg)
        # /proc is still the zygote's: it names this process by the pid the
        # zygote and synth know, where getpid() would say 1.
        pid = int(os.readlink("/proc/self")) if op == STEM_PID_NS else os.getpid()
        os.set_inheritable(ctl_fd, False)
        ctl = socket.socket(fileno=ctl_fd)
        ctl.sendall((json.dumps({"pid": pid}) + "\n").encode())
        if op == STEM_PLAIN:
            os.close(parent)
            become_child(req, ctl, out_fd, None)
        if template is None:
            _check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
        else:
            _check(libc.unshare(CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
            join_root(template)
            os.close(template)
            req = dict(req, root_joined=True)
        become_child(req, ctl, out_fd, parent)
    except BaseException as e:
        if ctl_fd is not None:
            try:
                os.write(ctl_fd, (json.dumps({"error": "sandbox fork: %s" % e}) + "\n").encode())
            except Exception:
                pass
    os._exit(71)


def spawn_from_stem(req, fds):
    """In the zygote: has the stem fork the interpreter for req and sends
    it req and fds. Returns False, having sent nothing, where the stem could
    not fork (the caller forks from the zygote); a stem that is gone is
    dropped."""
    if not STEM:
        return False
    ns = req["ns"]
    if ns and (req.get("userns") or not ZYGOTE_FDS):
        return False
    try:
        os.write(STEM["ops"], STEM_PID_NS if ns else STEM_PLAIN)
        got = os.read(STEM["pids"], 4)
    except OSError:
        got = b""
    if len(got) != 4:
        stop_stem()
        return False
    pid = int.from_bytes(got, "little", signed=True)
    if pid <= 0:
        if pid == -2:  # the kernel refuses the pid namespace: the caller uses a waiter
            for fd in ZYGOTE_FDS.values():
                os.close(fd)
            ZYGOTE_FDS.clear()
        return False  # a failed fork (-1): the zygote tries this one itself
    pidfd = os.pidfd_open(pid)
    STEM_LIVE[pidfd] = pid
    watch(pidfd)
    template = root_template(req) if ns else None
    send = list(fds) + ([template] if template is not None else [])
    socket.send_fds(STEM["hand"], [json.dumps(req).encode()], send)
    for fd in fds:
        os.close(fd)
    return True


def stop_stem():
    """In the zygote: drops a stem that is gone; the zygote forks from then on."""
    for fd in (STEM.get("ops"), STEM.get("pids"), STEM.get("dead")):
        if fd is not None:
            forget(fd)
            os.close(fd)
    if STEM.get("hand") is not None:
        STEM["hand"].close()
    for fd in STEM_LIVE:
        forget(fd)
        os.close(fd)
    STEM_LIVE.clear()
    STEM.clear()


def stem_deaths(zsock):
    """In the zygote: reads the stem's reports of interpreters it reaped and
    passes them on as reap does."""
    try:
        data = os.read(STEM["dead"], 8 << 10)
    except BlockingIOError:
        return
    if not data:
        stop_stem()
        return
    for off in range(0, len(data) - len(data) % 8, 8):
        pid, status = struct.unpack_from("ii", data, off)
        for fd in [fd for fd, p in STEM_LIVE.items() if p == pid]:
            forget(fd)
            os.close(fd)
            del STEM_LIVE[fd]
        report_death(zsock, pid, status)


# ---------------------------------------------------------------- the zygote


def probe(flags, uid, userns=False):
    """Reports whether a forked child can unshare flags (in a user namespace
    of its own with userns) and drop to uid."""
    pid = os.fork()
    if pid == 0:
        try:
            if userns:
                enter_userns(flags)
                mount(None, "/", None, MS_REC | MS_PRIVATE)
                mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k")
            elif flags:
                _check(libc.unshare(flags), "unshare")
            if uid:
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
                resource.setrlimit(resource.RLIMIT_NPROC, (64, 64))
        except BaseException:
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def preload(mods):
    report = {}
    for m in mods:
        try:
            __import__(m)
            report[m] = "ok"
        except BaseException as e:
            report[m] = "%s: %s" % (type(e).__name__, e)
    mpl = sys.modules.get("matplotlib")
    if mpl is not None:
        try:
            mpl.use("Agg")
        except Exception:
            pass
    return report


def remember_font_cache():
    cfg = os.environ.get("MPLCONFIGDIR")
    if not cfg or not os.path.isdir(cfg):
        return
    for name in os.listdir(cfg):
        if name.startswith("fontlist") and name.endswith(".json"):
            with open(os.path.join(cfg, name), "rb") as f:
                FONT_CACHE[name] = f.read()


def helper_threads():
    """The names of the threads running beside the zygote's own. A library's
    helper thread maps and frees memory on the machine's timing while the
    zygote imports, so interpreters would start from another heap from one
    zygote to the next (zygote.go's zygoteEnv turns off the ones known)."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return []
    names = []
    for t in tasks:
        if t == str(os.getpid()):
            continue
        try:
            with open("/proc/self/task/%s/comm" % t) as f:
                names.append(f.read().strip())
        except OSError:
            names.append("(ended)")
    return sorted(names)


def read_residents(fd):
    """The resident modules, read from fd to EOF; a string when unreadable."""
    try:
        with os.fdopen(fd, "rb") as f:
            mods = json.loads(f.read() or b"[]")
    except (OSError, ValueError) as e:
        return "%s: %s" % (type(e).__name__, e)
    if not isinstance(mods, list):
        return "not a list: %.60r" % (mods,)
    return mods


def load_residents(mods):
    """Runs each resident module into sys.modules, recording the digest of
    its source as __synth_sha256__; returns a report like preload's."""
    import hashlib
    import types
    if isinstance(mods, str):
        return {"resident modules": mods}
    report = {}
    for m in mods:
        name = m["name"]
        try:
            src = m["source"]
            mod = types.ModuleType(name)
            mod.__file__ = "<synth:%s>" % name
            mod.__synth_sha256__ = hashlib.sha256(src.encode("utf-8")).hexdigest()
            exec(compile(src, name + ".py", "exec"), mod.__dict__)
            sys.modules[name] = mod
            if m.get("init"):
                getattr(mod, m["init"])()
            CELL_GLOBALS.update(getattr(mod, "__synth_globals__", {}))
            report[name] = "ok"
        except BaseException as e:
            sys.modules.pop(name, None)
            report[name] = "%s: %s" % (type(e).__name__, e)
    return report


MADV_COLLAPSE = 25
HUGE_PAGE = 2 << 20


def heap_ranges():
    """The zygote's heap as (start, length) ranges aligned to huge pages,
    which collapse (bind_collapse) moves, where it can, into transparent
    huge pages (MADV_COLLAPSE, Linux 6.1): a fork then copies one page-table
    entry per 2 MiB instead of 512, and an interpreter's exit drops as few.
    Pages a fork writes are still copied 4 KiB at a time."""
    try:
        with open("/proc/self/maps") as f:
            maps = f.read().splitlines()
    except OSError:
        return []
    ranges = []
    for line in maps:
        f = line.split()
        if len(f) < 5 or f[1][:2] != "rw" or (len(f) > 5 and f[5] != "[heap]"):
            continue
        start, end = (int(x, 16) for x in f[0].split("-"))
        start = (start + HUGE_PAGE - 1) // HUGE_PAGE * HUGE_PAGE
        end = end // HUGE_PAGE * HUGE_PAGE
        if end > start:
            ranges.append((start, end - start))
    return ranges


def bind_collapse():
    """Returns collapse(ranges), which asks the kernel to move each range
    into huge pages; where it cannot, nothing changes. Collapsing takes a
    fifth of a second of a cold start, so the zygote does it once it is
    idle after its ready message (COLLAPSE_IDLE), not before: the first
    forks copy more page-table entries instead. It is called once here,
    on nothing, so that its first real call allocates what every later one
    does (the stem calls it in its loop)."""
    madvise = libc.madvise
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]

    def collapse(ranges):
        for start, length in ranges:
            madvise(start, length, MADV_COLLAPSE)

    collapse([(0, 0)])
    return collapse


# The zygote collapses its heap (and has the stem collapse its own) once no
# request came for COLLAPSE_IDLE seconds, or COLLAPSE_LATEST seconds after
# its ready message at the latest.
COLLAPSE_IDLE = 0.2
COLLAPSE_LATEST = 2.0


def probe_layers():
    """The isolation layers this machine allows, each probed in a fork."""
    return {
        "mount": probe(CLONE_NEWNS, 0),
        "net": probe(CLONE_NEWNET, 0),
        "ipc": probe(CLONE_NEWIPC, 0),
        "uts": probe(CLONE_NEWUTS, 0),
        "pid": probe(CLONE_NEWPID, 0),
        "user": probe(CLONE_NEWUSER, 0),
        "uid": os.getuid() == 0 and probe(0, 65534),
        "userns_all": os.getuid() != 0 and probe(
            CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID, 0, True),
        "fixed_addresses": FIXED_ADDRESSES,
    }


def zygote(cfg):
    residents = read_residents(RESIDENT_FD)
    os.closerange(ZYGOTE_FD + 1, 1 << 16)  # nothing else from the launcher reaches a cell
    zsock = socket.socket(fileno=ZYGOTE_FD)
    os.set_inheritable(ZYGOTE_FD, False)
    layers = probe_layers()  # before the imports: forking a small process is cheap
    # No collection while importing, none after: the modules' objects live
    # as long as the zygote, and a full collection of pandas' heap costs a
    # quarter of a second at every start. Freezing them keeps the
    # collector of every fork off them.
    import gc
    gc.disable()
    report = preload(cfg.get("preload") or [])
    report.update(load_residents(residents))
    # Set once here rather than in every fork (the filters compile regexes).
    warnings.filterwarnings("ignore", message=".*non-interactive.*")
    warnings.filterwarnings("ignore", message=".*FigureCanvasAgg.*")
    gc.freeze()  # forks then share the preloaded objects without the collector copying them
    gc.enable()
    if "matplotlib" not in sys.modules:
        try:
            import matplotlib.font_manager  # noqa: F401 -- builds the cache once
            del sys.modules["matplotlib.font_manager"]
        except BaseException:
            pass
    remember_font_cache()
    build_seccomp()
    zygote_env()
    heap = heap_ranges()
    collapse = bind_collapse()
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    threads = helper_threads()
    layers["one_thread"] = not threads
    if layers["pid"] and os.getuid() == 0:
        try:
            ZYGOTE_FDS["pidns"] = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
            ZYGOTE_FDS["pidfd"] = os.pidfd_open(os.getpid())
        except OSError:
            for fd in ZYGOTE_FDS.values():
                os.close(fd)
            ZYGOTE_FDS.clear()
    try:
        layers["stem"] = start_stem(zsock, heap, collapse)
    except OSError:
        layers["stem"] = False
    wr, ww = os.pipe()
    os.set_blocking(ww, False)
    os.set_blocking(wr, False)
    signal.set_wakeup_fd(ww)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    ready = {"ready": True, "python": sys.version.split()[0], "preload": report, "layers": layers,
             "pid": os.getpid(), "threads": threads}
    global ZPOLL
    ZPOLL = select.epoll()  # after the stem's fork: the stem holds none
    for fd in [zsock.fileno(), wr] + ([STEM["dead"]] if STEM else []):
        watch(fd)
    zsock.sendall(json.dumps(ready).encode())
    latest = time.monotonic() + COLLAPSE_LATEST
    while True:
        wait = None
        if heap is not None:
            wait = max(0.0, min(COLLAPSE_IDLE, latest - time.monotonic()))
        events = ZPOLL.poll(-1 if wait is None else wait)
        if heap is not None and (not events or time.monotonic() >= latest):
            collapse_heaps(heap, collapse)
            heap = None
        r = [zsock if fd == zsock.fileno() else fd for fd, _ in events]
        ended = [fd for fd in r if fd in STEM_LIVE]
        for fd in ended:  # an interpreter ended: the stem reaps it and says how
            forget(fd)
            os.close(fd)
            del STEM_LIVE[fd]
        if ended and STEM:
            try:
                os.write(STEM["ops"], STEM_REAP)
            except OSError:
                stop_stem()
        if STEM and STEM["dead"] in r:
            stem_deaths(zsock)
        if wr in r:
            try:
                os.read(wr, 4096)
            except BlockingIOError:
                pass
            reap(zsock)
        if zsock in r:
            msg, fds, _, _ = socket.recv_fds(zsock, 1 << 20, 4)
            if not msg:
                os._exit(0)
            if len(fds) != 2:
                for fd in fds:
                    os.close(fd)
                continue
            req = json.loads(msg)
            spawn(req, fds, zsock, (wr, ww))


def collapse_heaps(heap, collapse):
    """Has the stem move its heap into huge pages, and the zygote its own
    where it forks interpreters itself (no stem, or no pid namespace fds)."""
    if STEM:
        try:
            os.write(STEM["ops"], STEM_COLLAPSE)
        except OSError:
            stop_stem()
    if not STEM or not ZYGOTE_FDS:
        collapse(heap)


# ZPOLL is the zygote's epoll set: its socket, its signal wake-up pipe, the
# stem's death pipe and a pidfd per interpreter the stem forked (STEM_LIVE),
# registered once, so that a request costs the same with 4,000 live
# interpreters as with none (poll() hands the kernel every fd at every
# call, and select() stops at fd 1024).
ZPOLL = None


def watch(fd):
    if ZPOLL is not None:
        ZPOLL.register(fd, select.EPOLLIN)


def forget(fd):
    """Drops fd from ZPOLL; the caller closes it next (a closed fd left
    registered would be reported forever, and its number reused)."""
    if ZPOLL is None:
        return
    try:
        ZPOLL.unregister(fd)
    except OSError:
        pass


def reap(zsock):
    """Reaps the zygote's own children that ended (the stem's interpreters
    are the stem's: stem_deaths) and reports each to synth."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if STEM and pid == STEM["pid"]:
            stop_stem()  # its interpreters died with it; the zygote forks from now on
            continue
        report_death(zsock, pid, status)


def report_death(zsock, pid, status):
    note = {"dead": pid}
    if os.WIFSIGNALED(status):
        note["signal"] = os.WTERMSIG(status)
    else:
        note["exit"] = os.WEXITSTATUS(status)
    try:
        zsock.sendall(json.dumps(note).encode())
    except OSError as e:
        if e.errno in (errno.EPIPE, errno.ECONNRESET):
            os._exit(0)


ADDR_NO_RANDOMIZE = 0x0040000
PERSONALITY_QUERY = 0xFFFFFFFF


def fixed_addresses():
    """Turns off address-space randomisation for the zygote and so for every
    interpreter forked from it, so that what a cell prints with an object's
    address (<PIL.Image.Image ... at 0x7FFF...>, <object at 0x...>) is the
    same in every build: the personality flag takes effect at exec, so the
    zygote re-executes itself once with it set, before it reads anything
    from its launcher. Returns whether addresses are fixed; False where the
    kernel or a container's system call filter refuses the flag (the
    zygote then runs on, randomised). Isolation does not rest on it: a cell
    may read its own memory through ctypes anyway; the sandbox's boundary
    is its namespaces, uid, system call filter and limits."""
    libc.personality.restype = ctypes.c_int
    libc.personality.argtypes = [ctypes.c_ulong]
    cur = libc.personality(PERSONALITY_QUERY)
    if cur < 0:
        return False
    if cur & ADDR_NO_RANDOMIZE:
        return True
    if libc.personality(cur | ADDR_NO_RANDOMIZE) < 0:
        return False
    if libc.personality(PERSONALITY_QUERY) & ADDR_NO_RANDOMIZE == 0:
        return False
    try:
        os.execv(sys.executable, sys.orig_argv)
    except (OSError, AttributeError):
        libc.personality(cur)
        return False


if __name__ == "__main__":
    # Started as python3 -c BOOTSTRAP SOURCE zygote CONFIG, the bootstrap
    # compiling SOURCE under DRIVER_FILE.
    if len(sys.argv) >= 4 and sys.argv[2] == "zygote":
        FIXED_ADDRESSES = fixed_addresses()
        zygote(json.loads(sys.argv[3]))
    else:
        sys.stderr.write("usage: driver zygote CONFIG_JSON\n")
        sys.exit(2)
