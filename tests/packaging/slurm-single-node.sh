#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A single-node Slurm for tests, to be sourced: munged, slurmctld and slurmd
# started as plain processes (no init system needed) with their key, socket,
# state, spool, logs and slurm.conf in one folder, on two free ports, so a
# Slurm or munge already on the machine is left alone. Needs root (slurmd
# runs the jobs) and Debian's slurm-wlm and munge.
#
#   source tests/packaging/slurm-single-node.sh
#   slurm_node_start FOLDER SECONDS || echo "$slurm_node_problem"   # exports SLURM_CONF
#   sbatch --wait …
#   slurm_node_stop                                                  # also safe when the start failed
#
# slurm_node_start returns 1 with one line in $slurm_node_problem when the
# machine does not allow it; slurm_node_logs prints the end of every log.

# shellcheck disable=SC2034 # slurm_node_problem is for the scripts that source this file
slurm_node_dir=
slurm_node_pids=() # munged, slurmctld, slurmd, in the order they started
slurm_node_problem=

# Prints a TCP port on 127.0.0.1 on which nothing listens, with the next one also free.
slurm_node_free_ports() {
  local port attempt
  for ((attempt = 0; attempt < 50; attempt++)); do
    port=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null &&
      ! (exec 3<>"/dev/tcp/127.0.0.1/$((port + 1))") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  return 1
}

# Waits up to $2 seconds for the command $3… to succeed; fails early when the
# process $1 has exited.
slurm_node_wait() {
  local pid=$1 seconds=$2 end
  shift 2
  end=$((SECONDS + seconds))
  until "$@" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || return 1
    ((SECONDS < end)) || return 1
    sleep 0.5
  done
}

slurm_node_idle() {
  [[ $(timeout 10 sinfo --noheader --Node --format=%t) == idle ]]
}

slurm_node_start() { # folder seconds
  local dir=$1 seconds=$2 program port cpus memory
  slurm_node_dir=$dir
  slurm_node_problem=
  if [[ $(id -u) -ne 0 ]]; then
    slurm_node_problem="needs root to run slurmd (running as uid $(id -u))"
    return 1
  fi
  for program in munged mungekey slurmctld slurmd sbatch sinfo scancel squeue; do
    if ! command -v "$program" >/dev/null; then
      slurm_node_problem="$program not found (apt-get install slurm-wlm munge, or packaging/install-deps.sh --slurm)"
      return 1
    fi
  done
  if ! port=$(slurm_node_free_ports); then
    slurm_node_problem="no two free TCP ports on 127.0.0.1"
    return 1
  fi
  # munged insists that every user may traverse the folders above its socket
  # (the caller's too) and that nobody else may read its key.
  mkdir -p "$dir"
  chmod 755 "$dir"
  mkdir -m 755 "$dir/munge"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  if ! mungekey --create --keyfile="$dir/munge/munge.key" 2>"$dir/log/mungekey.log"; then
    slurm_node_problem="mungekey failed: $(tail -1 "$dir/log/mungekey.log")"
    return 1
  fi
  munged --foreground --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" >"$dir/log/munged.log" 2>&1 &
  slurm_node_pids+=($!)
  if ! slurm_node_wait "$!" 10 test -S "$dir/munge/socket"; then
    slurm_node_problem="munged did not start: $(tail -1 "$dir/log/munged.log")"
    return 1
  fi

  cpus=$(nproc)
  # Half the memory, so that slurmd never finds less than slurm.conf promises.
  memory=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 2048))
  cat >"$dir/slurm.conf" <<EOF
ClusterName=gpumem-test
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  slurm_node_pids+=($!)
  slurmd -D -N localhost -f "$SLURM_CONF" >"$dir/log/slurmd.out" 2>&1 &
  slurm_node_pids+=($!)
  if ! slurm_node_wait "${slurm_node_pids[1]}" "$seconds" slurm_node_idle; then
    if ! kill -0 "${slurm_node_pids[1]}" 2>/dev/null; then
      slurm_node_problem="slurmctld exited: $(tail -1 "$dir/log/slurmctld.out")"
    elif ! kill -0 "${slurm_node_pids[2]}" 2>/dev/null; then
      slurm_node_problem="slurmd exited: $(tail -1 "$dir/log/slurmd.out")"
    else
      slurm_node_problem="the node did not become idle within $seconds s (sinfo: $(timeout 10 sinfo --noheader --Node --format='%t %E' 2>&1 | head -1))"
    fi
    return 1
  fi
}

# Cancels what is left of the jobs, then stops the daemons, the last started
# first; each step is bounded in time.
slurm_node_stop() {
  local index pid end
  if ((${#slurm_node_pids[@]} >= 3)) && kill -0 "${slurm_node_pids[1]}" 2>/dev/null; then
    timeout 10 scancel --full --user=root 2>/dev/null || true
    end=$((SECONDS + 15))
    while ((SECONDS < end)) && [[ -n $(timeout 5 squeue --noheader 2>/dev/null) ]]; do
      sleep 0.5
    done
  fi
  for ((index = ${#slurm_node_pids[@]} - 1; index >= 0; index--)); do
    pid=${slurm_node_pids[$index]}
    kill -TERM "$pid" 2>/dev/null || continue
    end=$((SECONDS + 10))
    while ((SECONDS < end)) && kill -0 "$pid" 2>/dev/null; do
      sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  slurm_node_pids=()
}

slurm_node_logs() {
  local log
  for log in "$slurm_node_dir"/log/*; do
    [[ -s $log ]] || continue
    echo "---- $log"
    tail -15 "$log"
  done
}
