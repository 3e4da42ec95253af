#!/usr/bin/env bash
# A single-node SLURM cluster (Debian's slurm-wlm 22.05 + munge) with all state under a directory, for tests.
#   tests/slurm/cluster.sh install        apt-get install the packages (root; nothing is started by apt)
#   tests/slurm/cluster.sh config DIR     write DIR/slurm.conf (and DIR/bin/srun, DIR/bin/sbatch) only, with ports free right now
#   tests/slurm/cluster.sh start DIR      write the config, start munged, slurmctld, slurmd; wait until idle
#   tests/slurm/cluster.sh stop DIR       stop exactly the daemons started in DIR (by their pid files)
# Jobs need SLURM_CONF=DIR/slurm.conf and DIR/bin first on PATH (an srun wrapper: the jobstep plugin of
# snakemake-executor-plugin-slurm removes SLURM_CONF before its nested srun; an sbatch wrapper that logs each call to
# DIR/sbatch-calls.log).
set -euo pipefail
command=${1:?usage: cluster.sh install|config DIR|start DIR|stop DIR}

# A TCP port nobody listens on now (the kernel's choice), so that two clusters on one host never share one.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

write_config() {
    D=$1
    mkdir -p "$D"/{munge/run,munge/lib,munge/log,state,spool,log,run,bin}
    chmod 711 "$D/munge"; chmod 700 "$D/munge/lib" "$D/munge/log"; chmod 755 "$D/munge/run"
    cpus=$(nproc)
    memory=$(( $(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) - 2000 ))
    # node-local scratch the node offers to --tmp requests: nine tenths of the /tmp file system, in MB
    tmpdisk=$(df -Pm /tmp | awk 'NR == 2 {print int($2 * 0.9)}')
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done
    cat > "$D/slurm.conf" <<CONF
ClusterName=test
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/run/munge.socket.2
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/run/slurmctld.pid
SlurmdPidFile=$D/run/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
MailProg=/bin/true
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# finished jobs must stay visible to squeue (the status command without accounting)
MinJobAge=300
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=30
TmpFS=/tmp
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus Boards=1 SocketsPerBoard=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=$memory TmpDisk=$tmpdisk State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
    cat > "$D/bin/srun" <<WRAP
#!/bin/sh
export SLURM_CONF=$D/slurm.conf
exec /usr/bin/srun "\$@"
WRAP
    chmod +x "$D/bin/srun"
    # every sbatch call, as the executor made it, one line each in DIR/sbatch-calls.log (the tests read the options)
    cat > "$D/bin/sbatch" <<WRAP
#!/bin/sh
printf '%s\\n' "\$*" >> $D/sbatch-calls.log
exec /usr/bin/sbatch "\$@"
WRAP
    chmod +x "$D/bin/sbatch"
}

case "$command" in
install)
    if command -v slurmctld >/dev/null && command -v munged >/dev/null; then exit 0; fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
    ;;
config)
    write_config "$(realpath -m "${2:?cluster directory}")"
    ;;
start)
    D=$(realpath -m "${2:?cluster directory}")
    write_config "$D"
    [ -s "$D/munge/munge.key" ] || mungekey -c -k "$D/munge/munge.key" -b 1024
    munged --key-file="$D/munge/munge.key" --socket="$D/munge/run/munge.socket.2" \
        --pid-file="$D/munge/run/munged.pid" --seed-file="$D/munge/lib/munged.seed" --log-file="$D/munge/log/munged.log"
    export SLURM_CONF=$D/slurm.conf
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF" -N localhost
    for _ in $(seq 1 120); do
        if sinfo -h -o %t 2>/dev/null | grep -qx idle; then echo "slurm up in $D"; exit 0; fi
        sleep 0.5
    done
    echo "slurm did not come up; logs in $D/log" >&2
    exit 1
    ;;
stop)
    D=$(realpath -m "${2:?cluster directory}")
    for pidfile in "$D/run/slurmd.pid" "$D/run/slurmctld.pid" "$D/munge/run/munged.pid"; do
        [ -s "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || continue
        for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    done
    ;;
*)
    echo "usage: cluster.sh install|config DIR|start DIR|stop DIR" >&2
    exit 2
    ;;
esac
