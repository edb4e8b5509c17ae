#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine for synth's tests: munged,
# slurmctld and slurmd from Debian's slurm-wlm and munge, all on localhost,
# with their config, state, logs and spool under $SYNTH_SLURM_DIR
# (default /tmp/synth-slurm); /etc/slurm is left alone. It starts daemons
# directly (no systemd), and leaves them running for the next test run.
# Idempotent: when the cluster already answers, it only prints where its
# config is; `stop` ends slurmd and slurmctld (munged is left to the system).
#
# Usage: scripts/slurm-local.sh [start|stop]   (needs root)
# Then:  export SLURM_CONF=$SYNTH_SLURM_DIR/slurm.conf; sbatch ...
# Prints SLURM_CONF=... on its last line.
set -euo pipefail
dir=${SYNTH_SLURM_DIR:-/tmp/synth-slurm}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

die() { echo "slurm-local: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "needs root: it starts munged, slurmctld and slurmd"
for b in munged slurmctld slurmd sbatch scontrol; do
  command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || die "$b not found: install Debian's slurm-wlm and munge (scripts/deps.sh slurm-wlm munge)"
done
PATH=$PATH:/usr/sbin

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
  for p in slurmd slurmctld; do
    if alive "$dir/$p.pid"; then kill "$(cat "$dir/$p.pid")" || true; fi
  done
  for _ in $(seq 50); do
    alive "$dir/slurmd.pid" || alive "$dir/slurmctld.pid" || break
    sleep 0.1
  done
}

if [ "${1:-start}" = stop ]; then stop; exit 0; fi

node_ready() {
  local state
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -1) || return 1
  case "$state" in idle*|mixed*|allocated*|completing*) return 0 ;; esac
  return 1
}
if alive "$dir/slurmctld.pid" && alive "$dir/slurmd.pid" && node_ready; then
  echo "SLURM_CONF=$conf"
  exit 0
fi
stop

# munge: a key, its directories owned by munge, and munged running as munge.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  id munge >/dev/null 2>&1 || die "no munge user: reinstall the munge package"
  mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
  chmod 0700 /etc/munge /var/lib/munge /var/log/munge
  chmod 0400 /etc/munge/munge.key
  chmod 0755 /run/munge
  if alive /run/munge/munged.pid; then # a stale one that does not answer
    kill "$(cat /run/munge/munged.pid)" || true
    sleep 0.5
  fi
  rm -f /run/munge/munged.pid /run/munge/munge.socket.2*
  runuser -u munge -- munged
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
  munge -n | unmunge >/dev/null || die "munged does not answer: see /var/log/munge/munged.log"
fi

host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool" "$dir/log"
# The node as slurmd sees it (CPUs, sockets, memory), on the loopback.
nodeline=$(slurmd -C | head -1)
cat > "$conf" <<CONF
# One-node Slurm for synth's tests, written by scripts/slurm-local.sh.
ClusterName=synthtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
KillWait=30
SlurmctldTimeout=30
SlurmdTimeout=60
SlurmctldPort=${SYNTH_SLURMCTLD_PORT:-6817}
SlurmdPort=${SYNTH_SLURMD_PORT:-6818}
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
$nodeline NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
rm -f "$dir/cgroup.conf" # none: slurmd picks the cgroup version it finds, and jobs are tracked without it


# -c: a clean start, forgetting jobs of an earlier cluster in $dir.
slurmctld -c -f "$conf" || die "slurmctld did not start: $(tail -n 5 "$dir/log/slurmctld.log" 2>&1)"
slurmd -f "$conf" || die "slurmd did not start: $(tail -n 5 "$dir/log/slurmd.log" 2>&1)"
for _ in $(seq 100); do
  node_ready && break
  scontrol update nodename="$host" state=resume >/dev/null 2>&1 || true
  sleep 0.3
done
node_ready || die "the node did not come up: see $dir/log/slurmctld.log and $dir/log/slurmd.log ($(sinfo -h -N 2>&1 | head -1))"
echo "SLURM_CONF=$conf"
