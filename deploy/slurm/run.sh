#!/bin/sh
# Submits a Zebra series split over a Slurm array, and its merge once every shard is done:
#
#   deploy/slurm/run.sh SHARDS SERIES_DIR MERGED_DIR [zebra match flags...]
#
# e.g. run.sh 16 /shared/s1 /shared/s1-merged --bot new=/shared/new --bot old=/shared/old \
#          --games 4000 --seed 7 --concurrency 1
# Prints the array's job id and the merge's. Extra sbatch options (a partition, an account,
# a time limit) go in SBATCH_* variables, which sbatch reads (SBATCH_PARTITION=...).
set -eu
if [ "$#" -lt 3 ]; then
    echo "usage: $0 SHARDS SERIES_DIR MERGED_DIR [zebra match flags...]" >&2
    exit 2
fi
shards=$1 series=$2 merged=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
array=$(SHARDS=$shards SERIES_DIR=$series sbatch --parsable --array="0-$((shards - 1))" \
    --export=ALL "$here/shard.sbatch" "$@")
array=${array%%;*}
merge=$(SERIES_DIR=$series MERGED_DIR=$merged sbatch --parsable \
    --dependency="afterok:$array" --kill-on-invalid-dep=yes --export=ALL "$here/merge.sbatch")
echo "shards: job $array ($shards tasks); merge: job ${merge%%;*}"
