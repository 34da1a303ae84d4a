#!/usr/bin/env bash
# PostgreSQL for the server tests: installs Debian's postgresql, starts its cluster, makes a user (who may
# create the tests' scratch databases) and a database, and prints the line for .ci/run to eval:
#   eval "$(bash .ci/postgres.sh)"
# Everything but that line goes to stderr. Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PGUSER_NAME=cardtable
PGPASS=cardtable
PGDB=cardtable_test
{
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
        pg_createcluster "$version" main
    fi
    if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $4}' | grep -qx online; then
        pg_ctlcluster "$version" main start
    fi
    port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
    for _ in $(seq 1 60); do
        pg_isready -q -h 127.0.0.1 -p "$port" && break
        sleep 0.5
    done
    runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -p "$port" <<SQL
DO \$\$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PGUSER_NAME') THEN
        CREATE ROLE $PGUSER_NAME LOGIN CREATEDB PASSWORD '$PGPASS';
    ELSE
        ALTER ROLE $PGUSER_NAME LOGIN CREATEDB PASSWORD '$PGPASS';
    END IF;
END \$\$;
    GRANT pg_signal_backend TO $PGUSER_NAME;
SQL
    if ! runuser -u postgres -- psql -tA -p "$port" -c "SELECT 1 FROM pg_database WHERE datname = '$PGDB'" | grep -qx 1; then
        runuser -u postgres -- createdb -p "$port" -O "$PGUSER_NAME" "$PGDB"
    fi
} >&2
echo "export CARDTABLE_TEST_PG_URL=postgresql+psycopg://$PGUSER_NAME:$PGPASS@127.0.0.1:$port/$PGDB"
