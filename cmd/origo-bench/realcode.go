package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/analyzers/race"
)

// The real-code benchmark vets released modules with origo and compares
// every report with a verdict judged by reading the code: the precision
// of origo on code that people actually run, the figure that decides
// whether a user keeps the tool on.

// realModule is a module of the real-code benchmark, at a fixed version
// so that the reports, and hence the verdicts, stay comparable.
type realModule struct {
	path, version string
}

// realModules are the modules vetted by origo-bench realcode.
var realModules = []realModule{
	{"google.golang.org/grpc", "v1.85.0"},
	{"go.etcd.io/etcd/server/v3", "v3.7.3"},
	{"github.com/prometheus/client_golang", "v1.25.0"},
	// Added by issue 38 with a first look (realcode.firstlook), before
	// the rules.
	{"github.com/nats-io/nats.go", "v1.55.0"},
	{"github.com/redis/go-redis/v9", "v9.23.0"},
	{"github.com/hashicorp/raft", "v1.8.0"},
	{"github.com/dgraph-io/ristretto/v2", "v2.4.2"},
	{"github.com/go-sql-driver/mysql", "v1.10.1"},
	{"github.com/panjf2000/ants/v2", "v2.12.1"},
	{"github.com/go-co-op/gocron/v2", "v2.21.2"},
	// Added late, after the first rules (the evidence tier,
	// type filtering, inconsistent locking between API calls), with a
	// first look: their first-look precision measures those rules.
	{"github.com/hashicorp/memberlist", "v0.7.0"},
	{"github.com/hibiken/asynq", "v0.26.0"},
	{"github.com/centrifugal/centrifuge", "v0.40.1"},
	// Added later still, after the rules of issue 38's fourth session
	// (closure-captured variables and owning fields of unpublished
	// objects, synctest bubbles), with a first look.
	{"github.com/robfig/cron/v3", "v3.0.1"},
	{"github.com/jackc/puddle/v2", "v2.2.3"},
	{"github.com/allegro/bigcache/v3", "v3.1.0"},
	// Added in issue 38's sixth session, after test-objects on the
	// tests' own goroutine, running-flag, other-elements between
	// indices, sending as evidence only where the sender keeps using
	// what it sent, and go statements handing a channel and not what is
	// sent on it, with a first look: a driver, a logging library and a
	// Kafka client, none of which the real-bug benchmark holds.
	{"github.com/jackc/pgx/v5", "v5.12.0"},
	{"go.uber.org/zap", "v1.28.0"},
	{"github.com/IBM/sarama", "v1.61.1"},
	// Added in issue 38's seventh session, after not-published's
	// interface boxes and kept closures, per-run WaitGroups and
	// own-element through helpers, with a first look: a stream
	// multiplexer, an MQTT client and an embedded database. realbugs
	// holds older releases of the first two (a bug each, for recall);
	// no rule was written from their reports.
	{"github.com/hashicorp/yamux", "v0.1.2"},
	{"github.com/eclipse/paho.mqtt.golang", "v1.5.1"},
	{"go.etcd.io/bbolt", "v1.5.0"},
	// Added in issue 38's eighth session, after library types used
	// through sync/atomic, bare writes in synchronizing methods,
	// documented-serial types, goroutine-starting helpers, constructors
	// whose configuration literal starts no goroutine, append-past-len
	// and dormant timers, with a first look: a message-queue client, a
	// WebSocket library and a structured-concurrency library. One rule
	// came after their first look, from a judge's reason on conc: a
	// parallel subtest's code before t.Parallel runs while t.Run waits
	// (subtests-wait); their first-look record keeps the verdicts as
	// judged.
	{"github.com/nsqio/go-nsq", "v1.1.0"},
	{"github.com/gorilla/websocket", "v1.5.3"},
	{"github.com/sourcegraph/conc", "v0.3.0"},
	// Added in issue 38's eleventh session, after builders' calls
	// returning their own argument, the Once as no mutex, methods
	// entered with their receiver's mutex held and degraded test objects
	// only on their test's code, with a first look: a message-queue
	// client, an embedded key-value database and a distributed cache.
	// realbugs holds older releases of the first (for recall); no rule
	// was written from their reports.
	{"github.com/rabbitmq/amqp091-go", "v1.16.0"},
	{"github.com/tidwall/buntdb", "v1.3.0"},
	{"github.com/golang/groupcache", "v0.0.0-20241129210726-2c02b8208cf8"},
	// Added in issue 38's fourteenth session, after transactions that
	// hold their database's lock in the mode their flag chooses (lock
	// names that follow what a field or variable was given, booleans a
	// field carries) and receives that go on only once the channel was
	// closed, with a first look: a Redis client with a connection pool,
	// a message-routing library and a Kafka client (realbugs holds an
	// older release, for recall). No rule was written from their
	// reports. (A circuit breaker and an event-loop network framework
	// were tried first and left out: origo reports nothing on either.)
	{"github.com/gomodule/redigo", "v1.9.3"},
	{"github.com/ThreeDotsLabs/watermill", "v1.5.1"},
	{"github.com/segmentio/kafka-go", "v0.4.51"},
	// Added in issue 38's seventeenth session, after transactions whose
	// lock mode their flag decides through a captured receiver, a
	// callback handed on and a field one goroutine sets itself, loops
	// that drain a semaphore channel, channels boxed for another
	// package, and select case bodies that order only what they lead
	// to, with a first look: a ZooKeeper client, a PostgreSQL driver and
	// a file watcher, the first three in a list fixed before any was
	// vetted (go-zookeeper/zk, lib/pq, fsnotify, golang-lru, pond,
	// clockwork, ...) on which origo reports something. Two rules came
	// after their first look, from a judge's reasons on zk and fsnotify:
	// goroutines joined in each iteration of their loop
	// (joined-per-iteration), and <-make(chan T) in main's flow
	// (serve-forever); their first-look record keeps the verdicts as
	// judged.
	{"github.com/go-zookeeper/zk", "v1.0.4"},
	{"github.com/lib/pq", "v1.12.3"},
	{"github.com/fsnotify/fsnotify", "v1.10.1"},
	// Added in issue 38's eighteenth session, after test cleanups walked
	// where the testing package runs them, stops ordered after what a
	// sender does once past its send, the starter's fill judged on the
	// pair's executions, and a slice in a field guarded like its field,
	// with a first look: an LRU cache, a worker pool and a fake clock,
	// the next three of the list above (go-cache, next after clockwork
	// in it, has no go.mod and was skipped before).
	{"github.com/hashicorp/golang-lru/v2", "v2.0.7"},
	{"github.com/alitto/pond/v2", "v2.7.1"},
	{"github.com/jonboulle/clockwork", "v0.5.0"},
	// Added in issue 38's nineteenth session, after an internal
	// package's API callers no longer presumed concurrent, requests
	// used again after their reply as no evidence of sharing, and
	// objects published into a field under its mutex, with a first
	// look: a worker pool, a resilience-patterns library and a sharded
	// cache, the next three of the list above.
	{"github.com/gammazero/workerpool", "v1.3.0"},
	{"github.com/eapache/go-resiliency", "v1.7.0"},
	{"github.com/coocood/freecache", "v1.2.7"},
	// Added in issue 38's twentieth session, after channels made at one
	// place taken for one object however many contexts made them (a
	// semaphore drained by the constructor's every caller), with a
	// first look: the first three on which origo reports something of
	// a new list, fixed before any of it was vetted (sony/gobreaker,
	// syndtr/goleveldb, hashicorp/go-retryablehttp, gocql/gocql,
	// hashicorp/serf, go.uber.org/ratelimit).
	// gobreaker v2.4.0 and go-retryablehttp v0.7.8 got no report.
	{"github.com/syndtr/goleveldb", "v1.0.0"},
	{"github.com/gocql/gocql", "v1.7.0"},
	{"github.com/hashicorp/serf", "v0.11.0"},
	// Added in issue 38's twenty-first session, after interface calls
	// that run the method of the value their chain passed, adapters
	// analyzed per call site and a flag won once (runs-once), with a
	// first look: the last module of the list above (go.uber.org/
	// ratelimit) and the first two on which origo reports something of
	// a new list, fixed before any of it was vetted
	// (sourcegraph/jsonrpc2, bradfitz/gomemcache, jellydator/ttlcache,
	// rcrowley/go-metrics, afex/hystrix-go, armon/go-metrics,
	// hashicorp/go-memdb, influxdata/influxdb-client-go, olivere/elastic).
	// gomemcache got no report.
	{"go.uber.org/ratelimit", "v0.3.1"},
	{"github.com/sourcegraph/jsonrpc2", "v0.2.3"},
	{"github.com/jellydator/ttlcache/v3", "v3.4.1"},
	// Added in issue 38's twenty-second session, after appends past the
	// length seen in event loops, two takers of one pool, a test report
	// that starves the test's receive and loops that join a subtest's
	// goroutines, with a first look: the next three of the list above
	// that have a go.mod (rcrowley/go-metrics and afex/hystrix-go have
	// none, as go-cache before) and that the benchmark can prepare
	// (influxdata/influxdb-client-go/v2 v2.14.0, a go 1.16 module, fails
	// go mod tidy on its dependencies' graph pruning).
	{"github.com/armon/go-metrics", "v0.7.0"},
	{"github.com/hashicorp/go-memdb", "v1.3.5"},
	{"github.com/olivere/elastic/v7", "v7.0.32"},
	// Added in issue 38's twenty-third session, after per-run objects
	// handed on to the goroutines a handed goroutine starts and
	// semaphores taken in a select case, with a first look: the first
	// three on which origo reports something of a new list, fixed
	// before any of it was vetted (thejerf/suture/v4, docker/go-events,
	// uber-go/tally/v4, Shopify/toxiproxy/v2, bluele/gcache,
	// cskr/pubsub, hashicorp/go-plugin, puzpuzpuz/xsync/v4,
	// VictoriaMetrics/fastcache; karlseguin/ccache/v3, first chosen,
	// is not served by the module proxy).
	{"github.com/thejerf/suture/v4", "v4.0.6"},
	{"github.com/docker/go-events", "v0.1.0"},
	{"github.com/uber-go/tally/v4", "v4.1.17"},
	// Added later in issue 38's twenty-third session, after a state
	// left for good, a state claimed for a run and "with" copies of a
	// configuration, with a first look: the next three of the list
	// above on which origo reports something (cskr/pubsub v1.0.2 got
	// no report).
	{"github.com/Shopify/toxiproxy/v2", "v2.5.0"},
	{"github.com/bluele/gcache", "v0.0.2"},
	{"github.com/hashicorp/go-plugin", "v1.8.0"},
	// Added in issue 38's twenty-fourth session, after never-ready select
	// cases, local semaphore drains and the io contracts, with a first
	// look: the rest of the list above (puzpuzpuz/xsync/v4,
	// VictoriaMetrics/fastcache), then a new list, fixed before any of it
	// was vetted and taken in order where origo reports something:
	// miekg/dns, sirupsen/logrus, hashicorp/consul/api,
	// panjf2000/gnet/v2, maypok86/otter/v2, spf13/viper.
	{"github.com/puzpuzpuz/xsync/v4", "v4.5.0"},
	{"github.com/VictoriaMetrics/fastcache", "v1.13.2"},
	{"github.com/miekg/dns", "v1.1.73"},
	{"github.com/sirupsen/logrus", "v1.10.2"},
	// Added in issue 38's twenty-fifth session, after a select case that
	// can never be chosen, the io contracts, callbacks another package
	// keeps for its goroutines, NewCond's lock, counted senders without
	// constants, a mutex as a start signal and unlockOnce, with a first
	// look: the rest of the list above, in order, where origo reports
	// something (gnet/v2 v2.9.7 and viper v1.21.0 got no report), then
	// a new list, fixed before any of it was vetted:
	// go.opentelemetry.io/otel/sdk, valyala/fasthttp, dgraph-io/badger/v4,
	// quic-go/quic-go, hashicorp/go-hclog, golang.org/x/time.
	{"github.com/hashicorp/consul/api", "v1.34.5"},
	{"github.com/maypok86/otter/v2", "v2.4.0"},
	{"go.opentelemetry.io/otel/sdk", "v1.47.0"},
	// Added in issue 38's twenty-seventh session (its first look was run
	// in the twenty-sixth too, whose work was lost), after factory chains
	// that keep their entering call, channels of a library's shared
	// receiver and contexts never canceled, with a first look: the next
	// of the list above.
	{"github.com/valyala/fasthttp", "v1.78.0"},
	// Added in issue 38's twenty-ninth session, with a first look at
	// 2ded933 (never-closed, claimOf and runsIn kept): the next of the
	// list fixed in the twenty-fifth.
	{"github.com/dgraph-io/badger/v4", "v4.9.6"},
	// Added later in issue 38's twenty-ninth session, after
	// subtest-objects, test-objects across the roots of the tests,
	// inconsistent locking only under a mutex that may guard the
	// location, contracted "not thread safe" docs and countdowns known
	// at most zero, with a first look: the next of the list.
	{"github.com/quic-go/quic-go", "v0.65.0"},
	// Added in issue 38's thirtieth session, after a caller's lock that
	// its callee unlocks and locks again around a wait given back, and
	// what another package's constructor allocates for a test taken for
	// that test's, with a first look: the rest of the list fixed in the
	// twenty-fifth got no report (go-hclog v1.6.3, x/time v0.16.0, with
	// and without -all), so the first three of a new list, fixed before any
	// of it was vetted and taken in order where origo reports
	// something: coder/websocket v1.8.15, olahol/melody v1.1.4,
	// Workiva/go-datastructures v1.1.7, reugn/go-quartz v0.15.2,
	// orcaman/concurrent-map/v2 v2.0.1, mediocregopher/radix/v4 v4.1.4,
	// twmb/franz-go v1.22.3, nats-io/nats-server/v2 v2.15.3. melody
	// got no report.
	{"github.com/coder/websocket", "v1.8.15"},
	{"github.com/Workiva/go-datastructures", "v1.1.7"},
	{"github.com/reugn/go-quartz", "v0.15.2"},
	// Added in issue 38's thirty-second session, after channel locks
	// across calls, semaphores kept to a goroutine's end, a call's
	// locks at every return that does not fail and token channels, with
	// a first look: the next three of the list fixed in the thirtieth.
	{"github.com/orcaman/concurrent-map/v2", "v2.0.1"},
	{"github.com/mediocregopher/radix/v4", "v4.1.4"},
	{"github.com/twmb/franz-go", "v1.22.3"},
	// Added in issue 38's thirty-fourth session, after the package-level
	// holder made once, sends one call down, lazy initializations in
	// helpers entered holding the mutex and goroutines joined under a
	// lock, with a first look. The list fixed in the thirtieth ends with
	// nats-io/nats-server/v2 v2.15.3, whose server package needs a run
	// of its own (left for a later session); a new list, fixed in this
	// session before any of it was vetted, taken in order where origo
	// reports something: redis/rueidis v1.0.80,
	// libp2p/go-libp2p-pubsub v0.19.0, panjf2000/gnet/v2 v2.9.7,
	// ClickHouse/clickhouse-go/v2 v2.51.0,
	// influxdata/influxdb-client-go/v2 v2.14.0, cockroachdb/pebble
	// v1.1.5 (patrickmn/go-cache, first on it, has no go.mod).
	{"github.com/redis/rueidis", "v1.0.80"},
}

// defaultVerdicts is the verdict file, relative to the origo repository.
const defaultVerdicts = "cmd/origo-bench/testdata/realcode.verdicts"

// defaultFirstLook is the first-look record, relative to the origo
// repository: for each module added to the benchmark after it had
// verdicts, the verdicts of the reports origo gave the first time it
// vetted the module, judged before anything in origo was changed for
// it. Later changes never rewrite it: its precision is what a rule is
// worth on code it was not fitted to.
const defaultFirstLook = "cmd/origo-bench/testdata/realcode.firstlook"

// preparedMark is written into a scratch module once it is ready to vet,
// so that a kept one is reused and a half-prepared one is not.
const preparedMark = ".origo-bench-prepared"

// benchRealCode vets the real modules with origo and scores the reports
// against the verdict file.
func benchRealCode(args []string) error {
	fs := flag.NewFlagSet("realcode", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from the repository of the current directory)")
	keep := fs.String("keep", "", "prepare the scratch modules in this directory and keep them for later runs")
	verdictsFile := fs.String("verdicts", defaultVerdicts, "the verdict file")
	only := fs.String("only", "", "vet only the modules whose path contains this string")
	firstLookFile := fs.String("firstlook", defaultFirstLook, "the first-look record")
	verbose := fs.Bool("v", false, "list the reports not yet judged, in verdict-file format (under -confirm: the reports judged TRUE and not confirmed, with why)")
	list := fs.String("evidence", "", "list the reports whose kind and evidence of sharing (\"race/data-race: made once, by TestX\") contain this string, with the evidence and their verdicts")
	confirm := fs.Bool("confirm", false, "run the standalone origo -confirm on each module (it runs the module's tests) and count its reports confirmed, tried and not confirmed, and not reachable from any test; fail if a confirmed report is judged FALSE or not judged")
	budget := fs.Duration("confirm.budget", 0, "origo's -confirm.budget (0: its default)")
	parallel := fs.Int("confirm.parallel", 0, "origo's -confirm.parallel (0: its default)")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	verdicts, err := readVerdicts(*verdictsFile)
	if err != nil {
		return err
	}
	firstLook, err := readVerdicts(*firstLookFile)
	if err != nil {
		return err
	}
	tmp, root, err := scratch(*keep, "")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if *origo, err = origoBinary(*origo, tmp); err != nil {
		return err
	}
	if *confirm {
		err := benchRealConfirm(os.Stdout, root, *origo, *only, confirmFlags(*budget, *parallel), verdicts, *verbose)
		if *keep != "" {
			fmt.Printf("scratch modules kept in %s\n", root)
		}
		return err
	}
	var rows []realRow
	byKind := make(map[string]*realRow)
	byEvidence := make(map[string]*realRow) // race's reports, by what showed the memory shared
	var listed []string                     // see -evidence
	var unjudged, stale []string
	var skipped []string // origo's lines for the packages it skipped
	for _, m := range realModules {
		if !strings.Contains(m.path, *only) {
			continue
		}
		dir := filepath.Join(root, strings.ReplaceAll(m.path, "/", "_")+"@"+m.version)
		if err := prepareModule(m, dir); err != nil {
			return err
		}
		// With race's lower tier: the default reports are the others.
		res, err := runVetJSON(dir, *origo, "-race.all")
		if err != nil {
			return err
		}
		for name, errs := range res.errors {
			for _, e := range errs {
				fmt.Fprintf(os.Stderr, "warning: %s: analyzer %s failed on %s\n", m.path, name, e)
			}
		}
		skipped = append(skipped, res.skipped...)
		reps, err := keyReports(dir, res)
		if err != nil {
			return err
		}
		var shown []realReport // the default tier
		for _, r := range reps {
			if !r.possible {
				shown = append(shown, r)
			}
		}
		row, missing, gone := judge(m.path, reps, verdicts[m.path])
		all := row
		row, missing, _ = judge(m.path, shown, verdicts[m.path])
		row.all = &all
		row.first = firstLookRow(firstLook[m.path])
		rows = append(rows, row)
		judgeByKind(byKind, shown, verdicts[m.path], func(r realReport) string { return r.kind })
		judgeByKind(byEvidence, shown, verdicts[m.path], evidenceClass)
		for _, r := range shown {
			if *list != "" && strings.Contains(r.kind+": "+r.evidence, *list) {
				v := verdicts[m.path][r.key]
				listed = append(listed, fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", m.path, r.posn, r.evidence, cmp.Or(v.word, "?"), r.key, v.reason))
			}
		}
		for _, r := range missing {
			unjudged = append(unjudged, fmt.Sprintf("%s\t%s\t?\t%s", m.path, r.key, r.posn))
		}
		for _, v := range gone {
			stale = append(stale, fmt.Sprintf("%s:%d: %s\t%s", *verdictsFile, v.line, m.path, v.key))
		}
	}
	printRealTable(os.Stdout, "module", rows)
	fmt.Println()
	var kindRows []realRow
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		kindRows = append(kindRows, *byKind[k])
	}
	printRealTable(os.Stdout, "kind", kindRows)
	fmt.Println()
	delete(byEvidence, "") // not race's, or a possible race
	var evRows []realRow
	for _, k := range slices.Sorted(maps.Keys(byEvidence)) {
		evRows = append(evRows, *byEvidence[k])
	}
	printRealTable(os.Stdout, "race: shared by goroutines, as", evRows)
	printSkipped(os.Stdout, skipped)
	if len(listed) > 0 {
		fmt.Printf("\nreports whose kind and evidence have %q:\n", *list)
		for _, l := range listed {
			fmt.Println(l)
		}
	}
	if *verbose && len(unjudged) > 0 {
		fmt.Println("\nnot yet judged (replace ? with TRUE, FALSE or UNSURE and the position with a reason):")
		for _, l := range unjudged {
			fmt.Println(l)
		}
	}
	for _, l := range stale {
		fmt.Fprintf(os.Stderr, "warning: stale verdict, no such report: %s\n", l)
	}
	if *keep != "" {
		fmt.Printf("scratch modules kept in %s\n", root)
	}
	return nil
}

// prepareModule makes dir a writable copy of the module, standing on its
// own: its replace directives (etcd's point at sibling directories of its
// repository) dropped, no toolchain line, and go.mod and go.sum tidied.
// A dir prepared before is reused as it is.
func prepareModule(m realModule, dir string) error {
	if _, err := os.Stat(filepath.Join(dir, preparedMark)); err == nil {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	out, err := goCmd("", "mod", "download", "-json", m.path+"@"+m.version)
	if err != nil {
		return err
	}
	var dl struct{ Dir, Error string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		return fmt.Errorf("go mod download %s@%s: %v%s", m.path, m.version, err, dl.Error)
	}
	if err := copyTree(dl.Dir, dir); err != nil {
		return err
	}
	out, err = goCmd(dir, "mod", "edit", "-json")
	if err != nil {
		return err
	}
	var mod struct {
		Replace []struct {
			Old struct{ Path, Version string }
		}
	}
	if err := json.Unmarshal(out, &mod); err != nil {
		return fmt.Errorf("go mod edit -json in %s: %v", dir, err)
	}
	edit := []string{"mod", "edit", "-toolchain=none"}
	for _, r := range mod.Replace {
		edit = append(edit, "-dropreplace="+r.Old.Path+atVersion(r.Old.Version))
	}
	if _, err := goCmd(dir, edit...); err != nil {
		return err
	}
	if _, err := goCmd(dir, "mod", "tidy"); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, preparedMark), nil, 0o644)
}

// atVersion is "@v" for a version v, or "" for none.
func atVersion(v string) string {
	if v == "" {
		return ""
	}
	return "@" + v
}

// goCmd runs the go command in dir (the current directory if empty),
// outside any workspace, and returns its standard output.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s (in %s): %v\n%s", strings.Join(args, " "), cmp.Or(dir, "."), err, lastLines(stderr.String(), 30))
	}
	return stdout.Bytes(), nil
}

// copyTree copies the directory tree src to dst, writable (the module
// cache is read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// realReport is one report of origo on a real module.
type realReport struct {
	key      string    // stable across unrelated line shifts; see reportKey
	posn     string    // module-relative file:line:col, for a person to look
	kind     string    // the diagnostic's category (see package kinds)
	possible bool      // race's lower tier (-race.all), keyed as the report it would be
	evidence string    // what race took to show the memory shared (see race.EvidencePrefix), or ""
	from     []diagKey // the diagnostics it stands for: one, or a package's and its test variant's
}

// keyReports gives every diagnostic of the vet result its key, in file
// order, numbering equal keys (#2, #3...). A diagnostic that go vet
// reported twice (a package and its test variant) counts once.
func keyReports(dir string, res *vetResult) ([]realReport, error) {
	type posDiag struct {
		analyzer string
		file     string // module-relative
		line     int
		col      int
		message  string
		category string
		evidence string
	}
	from := make(map[posDiag][]diagKey)
	var ds []posDiag
	for analyzer, diags := range res.diags {
		for _, d := range diags {
			file, line, col, ok := splitPosn(d.Posn)
			if !ok {
				return nil, fmt.Errorf("bad position %q in go vet output", d.Posn)
			}
			if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
				file = filepath.ToSlash(rel)
			}
			pd := posDiag{analyzer, file, line, col, d.Message, d.Category, ""}
			for _, r := range d.Related {
				if e, ok := strings.CutPrefix(r.Message, race.EvidencePrefix); ok {
					pd.evidence = e
				}
			}
			if d.Category == kinds.PossibleRace.ID {
				// Keyed as the report it would be with evidence, so that
				// one verdict judges the pair in either tier.
				pd.message = strings.TrimSuffix(strings.TrimPrefix(d.Message, race.PossiblePrefix), "; "+race.NoEvidenceNote)
			}
			if from[pd] == nil {
				ds = append(ds, pd)
			}
			from[pd] = append(from[pd], d.key())
		}
	}
	slices.SortFunc(ds, func(a, b posDiag) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col),
			cmp.Compare(a.analyzer, b.analyzer), cmp.Compare(a.message, b.message))
	})
	files := make(map[string]*funcFinder)
	count := make(map[string]int)
	var reps []realReport
	for _, d := range ds {
		ff := files[d.file]
		if ff == nil {
			var err error
			if ff, err = parseFuncFinder(filepath.Join(dir, filepath.FromSlash(d.file))); err != nil {
				return nil, err
			}
			files[d.file] = ff
		}
		key := reportKey(d.file, ff.enclosing(d.line, d.col), d.analyzer, d.message)
		count[key]++
		if n := count[key]; n > 1 {
			key += " #" + strconv.Itoa(n)
		}
		reps = append(reps, realReport{
			key:      key,
			posn:     fmt.Sprintf("%s:%d:%d", d.file, d.line, d.col),
			kind:     cmp.Or(d.category, d.analyzer),
			possible: d.category == kinds.PossibleRace.ID,
			evidence: d.evidence,
			from:     from[d],
		})
	}
	return reps, nil
}

// goPosRE matches a position in a message: a Go file name with a line and
// maybe a column.
var goPosRE = regexp.MustCompile(`([^\s:()\[\]]+\.go):\d+(:\d+)?`)

// reportKey is the key of a report in the verdict file:
//
//	FILE FUNC ANALYZER: MESSAGE
//
// FILE is module-relative; FUNC is the function enclosing the report (see
// funcFinder.enclosing); MESSAGE is the diagnostic with every position
// file.go:NN or file.go:NN:CC (or dir/file.go:NN, a file of another
// package) cut to file.go, so that a line shift elsewhere in the file
// does not change the key. Tabs and newlines become spaces: the verdict
// file is tab-separated.
func reportKey(file, fn, analyzer, message string) string {
	msg := goPosRE.ReplaceAllStringFunc(message, func(p string) string {
		return path.Base(goPosRE.FindStringSubmatch(p)[1])
	})
	msg = strings.Join(strings.Fields(msg), " ")
	return fmt.Sprintf("%s %s %s: %s", file, fn, analyzer, msg)
}

// funcFinder finds the function that encloses a position of one file.
type funcFinder struct {
	fset *token.FileSet
	tf   *token.File
	file *ast.File
}

// parseFuncFinder parses the Go file name.
func parseFuncFinder(name string) (*funcFinder, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return newFuncFinder(name, src)
}

// newFuncFinder parses src as the Go file name.
func newFuncFinder(name string, src []byte) (*funcFinder, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return &funcFinder{fset, fset.File(f.Pos()), f}, nil
}

// enclosing names the innermost function that holds line:col:
// F for a function, T.M or (*T).M for a method (type parameters left
// out), and PARENT$N for the Nth function literal directly inside PARENT,
// counted in source order as the compiler's SSA names them (F$1, F$1$2).
// Function literals outside functions (package-level initializers) are
// init$N, counted over the file. Outside any function, the name is "-".
func (ff *funcFinder) enclosing(line, col int) string {
	if line < 1 || line > ff.tf.LineCount() {
		return "-"
	}
	pos := ff.tf.LineStart(line) + token.Pos(col-1)
	inits := 0
	for _, decl := range ff.file.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok {
			if fd.Pos() <= pos && pos < fd.End() {
				if fd.Body == nil {
					return funcDeclName(fd)
				}
				return litName(fd.Body, funcDeclName(fd), pos)
			}
			continue
		}
		hit, n := litIn(decl, pos)
		if hit.lit != nil {
			return litName(hit.lit, "init$"+strconv.Itoa(inits+hit.index), pos)
		}
		inits += n
	}
	return "-"
}

// funcDeclName is F for a function, T.M or (*T).M for a method.
func funcDeclName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch x := t.(type) { // type parameters left out
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := "?"
	if id, ok := t.(*ast.Ident); ok {
		name = id.Name
	}
	if star {
		return "(*" + name + ")." + fd.Name.Name
	}
	return name + "." + fd.Name.Name
}

// litName names the innermost function literal inside body (a function's
// body or a literal) that holds pos, or parent if none does.
func litName(body ast.Node, parent string, pos token.Pos) string {
	for {
		var hit litHit
		if lit, ok := body.(*ast.FuncLit); ok {
			hit, _ = litIn(lit.Body, pos)
		} else {
			hit, _ = litIn(body, pos)
		}
		if hit.lit == nil {
			return parent
		}
		parent += "$" + strconv.Itoa(hit.index)
		body = hit.lit
	}
}

// litHit is the function literal holding a position and its 1-based index
// among the literals directly inside its parent.
type litHit struct {
	index int
	lit   *ast.FuncLit
}

// litIn counts the function literals directly inside n (not nested in
// another literal) and returns the one holding pos, if any.
func litIn(n ast.Node, pos token.Pos) (hit litHit, count int) {
	ast.Inspect(n, func(c ast.Node) bool {
		lit, ok := c.(*ast.FuncLit)
		if !ok {
			return true
		}
		count++
		if hit.lit == nil && lit.Pos() <= pos && pos < lit.End() {
			hit = litHit{count, lit}
		}
		return false
	})
	return hit, count
}

// verdict is one judged report of the verdict file.
type verdict struct {
	key    string
	word   string // TRUE, FALSE or UNSURE
	reason string
	line   int // in the verdict file
}

// verdictWords are the verdicts a report may get.
var verdictWords = []string{"TRUE", "FALSE", "UNSURE"}

// readVerdicts reads the verdict file name, by module and key.
func readVerdicts(name string) (map[string]map[string]verdict, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%v (run from the origo repository, or give -verdicts)", err)
	}
	defer f.Close()
	return parseVerdicts(name, f)
}

// parseVerdicts parses a verdict file: blank lines, # comments and lines
//
//	MODULE<TAB>KEY<TAB>VERDICT<TAB>REASON
//
// where VERDICT is TRUE, FALSE or UNSURE, and REASON is required for
// TRUE and FALSE. A key judged twice for a module is an error.
func parseVerdicts(name string, r io.Reader) (map[string]map[string]verdict, error) {
	vs := make(map[string]map[string]verdict)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), " \r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		fields := strings.SplitN(text, "\t", 4)
		if len(fields) < 3 {
			return nil, fmt.Errorf("%s:%d: want MODULE<TAB>KEY<TAB>VERDICT<TAB>REASON, got %d tab-separated fields", name, n, len(fields))
		}
		mod, key, word := strings.TrimSpace(fields[0]), strings.TrimSpace(fields[1]), strings.TrimSpace(fields[2])
		reason := ""
		if len(fields) == 4 {
			reason = strings.TrimSpace(fields[3])
		}
		switch {
		case mod == "" || key == "":
			return nil, fmt.Errorf("%s:%d: empty module or key", name, n)
		case word == "?":
			return nil, fmt.Errorf("%s:%d: not judged: replace ? with TRUE, FALSE or UNSURE", name, n)
		case !slices.Contains(verdictWords, word):
			return nil, fmt.Errorf("%s:%d: unknown verdict %q (want TRUE, FALSE or UNSURE)", name, n, word)
		case word != "UNSURE" && reason == "":
			return nil, fmt.Errorf("%s:%d: verdict %s without a reason", name, n, word)
		}
		if vs[mod] == nil {
			vs[mod] = make(map[string]verdict)
		}
		if old, dup := vs[mod][key]; dup {
			return nil, fmt.Errorf("%s:%d: key judged already on line %d: %s", name, n, old.line, key)
		}
		vs[mod][key] = verdict{key, word, reason, n}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return vs, nil
}

// realRow is the score of origo on one module.
type realRow struct {
	module                       string
	reports, true, false, unsure int
	first                        *realRow // the first-look record's score, if any
	all                          *realRow // the score with race's lower tier (-race.all), if known
}

// firstLookRow scores a module's first-look record: each of its
// verdicts was a report then. It returns nil for a module without one.
func firstLookRow(vs map[string]verdict) *realRow {
	if len(vs) == 0 {
		return nil
	}
	row := &realRow{reports: len(vs)}
	for _, v := range vs {
		row.count(v.word)
	}
	return row
}

// judged is the number of reports with a verdict.
func (r realRow) judged() int { return r.true + r.false + r.unsure }

// unjudged is the number of reports without a verdict.
func (r realRow) unjudged() int { return r.reports - r.judged() }

// precision is true / (true + false), formatted, or "-" if no report is
// judged TRUE or FALSE.
func (r realRow) precision() string {
	if r.true+r.false == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(r.true)/float64(r.true+r.false))
}

// judge scores the reports of a module against its verdicts. It returns
// the reports without a verdict and the verdicts, in file order, whose
// key matches no report (stale: the code or origo changed).
func judge(module string, reps []realReport, vs map[string]verdict) (row realRow, missing []realReport, stale []verdict) {
	row.module = module
	row.reports = len(reps)
	matched := make(map[string]bool)
	for _, r := range reps {
		v, ok := vs[r.key]
		if !ok {
			missing = append(missing, r)
			continue
		}
		matched[r.key] = true
		row.count(v.word)
	}
	for key, v := range vs {
		if !matched[key] {
			stale = append(stale, v)
		}
	}
	slices.SortFunc(stale, func(a, b verdict) int { return cmp.Compare(a.line, b.line) })
	return row, missing, stale
}

// evidenceClass is the class of a report by its evidence of sharing:
// the evidence, without the function named by "made once, by F".
func evidenceClass(r realReport) string {
	e, _, _ := strings.Cut(r.evidence, ", by ")
	return e
}

// judgeByKind adds the reports of a module, judged against its
// verdicts, to the rows of their class (of the report), whose module is
// the class: its kind, say.
func judgeByKind(rows map[string]*realRow, reps []realReport, vs map[string]verdict, of func(realReport) string) {
	for _, r := range reps {
		k := of(r)
		row := rows[k]
		if row == nil {
			row = &realRow{module: k}
			rows[k] = row
		}
		row.reports++
		row.count(vs[r.key].word)
	}
}

// printRealTable prints the score of each module (or kind: first names
// the column) and their total. Where a row has a first-look record, the
// last columns are its reports, TRUE, FALSE and precision; the total's
// are those of the modules with one.
func printRealTable(w io.Writer, first string, rows []realRow) {
	fmt.Fprintf(w, "%-38s %7s %6s %5s %5s %6s %8s %9s   %-26s   %s\n", first, "reports", "judged", "true", "false", "unsure", "unjudged", "precision", "-all: reports unjudged prec", "first look: reports true false precision")
	line := func(r realRow) {
		fl, al := "-", "-"
		if f := r.first; f != nil {
			fl = fmt.Sprintf("%7d %4d %5d %9s", f.reports, f.true, f.false, f.precision())
		}
		if a := r.all; a != nil {
			al = fmt.Sprintf("%13d %8d %4s", a.reports, a.unjudged(), a.precision())
		}
		fmt.Fprintf(w, "%-38s %7d %6d %5d %5d %6d %8d %9s   %-26s   %s\n", r.module, r.reports, r.judged(), r.true, r.false, r.unsure, r.unjudged(), r.precision(), al, fl)
	}
	total := realRow{module: "total"}
	for _, r := range rows {
		line(r)
		total.add(r)
		addTo(&total.all, r.all)
		addTo(&total.first, r.first)
	}
	line(total)
}

// count adds a report with the verdict word (none for "") to r's
// verdict counts.
func (r *realRow) count(word string) {
	switch word {
	case "TRUE":
		r.true++
	case "FALSE":
		r.false++
	case "UNSURE":
		r.unsure++
	}
}

// add adds o's reports and verdict counts to r's.
func (r *realRow) add(o realRow) {
	r.reports += o.reports
	r.true += o.true
	r.false += o.false
	r.unsure += o.unsure
}

// addTo adds o, if any, to the row *dst, made on first use.
func addTo(dst **realRow, o *realRow) {
	if o == nil {
		return
	}
	if *dst == nil {
		*dst = &realRow{}
	}
	(*dst).add(*o)
}

// printSkipped prints how many packages origo skipped at a bound, and
// its line for each: a skipped package is one whose races, deadlocks
// and leaks the scores above cannot count.
func printSkipped(w io.Writer, skipped []string) {
	fmt.Fprintf(w, "\npackages skipped at a bound: %d\n", len(skipped))
	for _, l := range skipped {
		fmt.Fprintf(w, "\t%s\n", l)
	}
}
