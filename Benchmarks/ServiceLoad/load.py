#!/usr/bin/env python3
"""Bounded load test of `speech serve` on loopback (issue 17, item 3).

Starts the release `speech serve`, then for --seconds runs at once:
  * --http-clients threads posting a clip to /v1/audio/transcriptions (json),
  * --face-clients threads running face sessions over the unix socket
    (ServiceWire frames: open, the clip as a recording, finish, updates),
  * --stream-clients threads running live streams (POST /v1/audio/streams, the
    clip as s16le in 0.5 s requests paced at --stream-pace x real time, events
    followed over SSE), one stream abandoned mid-audio (the idle timeout ends it),
  * one HTTP client killed mid-request, one face client that vanishes mid-session,
  * one oversized upload (expects 413), one slow client that sends half its
    headers and stalls (expects the service to close it after --timeout-seconds).
Samples the server's RSS every 0.5 s and its allocator's figures (/health memory)
every 2 s. --allocator default runs the server with glibc's allocator defaults
(SPEECHCOMPAT_SERVE_ALLOCATOR=default) for an A/B comparison. Prints a JSON summary; exit 1 on any
failure (a 5xx other than back-pressure 503, a wrong transcript, the service gone).
"""
import argparse, http.client, json, os, signal, socket, struct, subprocess, sys, tempfile, threading, time, wave

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def read_samples(path):
    with wave.open(path) as w:
        assert w.getframerate() == 16000 and w.getnchannels() == 1 and w.getsampwidth() == 2
        frames = w.readframes(w.getnframes())
    count = len(frames) // 2
    return [s / 32768.0 for s in struct.unpack("<%dh" % count, frames)]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = {"http": [], "face": [], "stream_final": [], "stream_first_event": []}
        self.counts = {}
        self.failures = []

    def count(self, key):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + 1

    def ok(self, kind, seconds):
        with self.lock:
            self.latencies[kind].append(seconds)
        self.count(kind + "_ok")

    def fail(self, what):
        with self.lock:
            self.failures.append(what)


def http_post(url, clip, timeout):
    out = subprocess.run(["curl", "-s", "-S", "--max-time", str(timeout), "-w", "\n%{http_code}",
                          "-F", "file=@" + clip, url + "/v1/audio/transcriptions"],
                         capture_output=True, text=True)
    body, _, status = out.stdout.rpartition("\n")
    return int(status or 0), body


def http_client(url, clip, deadline, stats, expected):
    while time.time() < deadline:
        start = time.time()
        status, body = http_post(url, clip, 300)
        if status == 200 and expected in body.lower():
            stats.ok("http", time.time() - start)
        elif status == 503:
            stats.count("http_503_backpressure")
            time.sleep(0.5)
        else:
            stats.fail("http %s %s" % (status, body[:200]))


def frame(kind, payload=b""):
    return struct.pack(">IB", len(payload) + 1, kind) + payload


def read_frame(sock):
    def exact(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data
    header = exact(4)
    if header is None:
        return None
    body = exact(struct.unpack(">I", header)[0])
    return None if body is None else (body[0], body[1:])


OPEN = json.dumps({"locale": "en-US", "phrases": [], "addsPunctuation": True, "reportsVolatileResults": True,
                   "prefersLowLatency": False, "alternativeCount": 1, "wordTimestamps": True}).encode()


def face_session(path, payload, abandon=False):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(300)
    sock.connect(path)
    sock.sendall(frame(1, OPEN))
    reply = read_frame(sock)
    if reply is None or reply[0] != 32:
        sock.close()
        return None if reply is None else ("rejected", json.loads(reply[1]))
    if abandon:
        sock.sendall(frame(4, payload[: len(payload) // 2]))
        sock.close()  # vanish mid-session, no finish or cancel
        return ("abandoned", None)
    sock.sendall(frame(4, payload) + frame(5) + frame(7))
    finals = []
    while True:
        update = read_frame(sock)
        if update is None:
            sock.close()
            return ("closed", finals)
        message = json.loads(update[1])
        if message["kind"] == "final":
            finals.append(message["span"]["text"])
        if message["kind"] in ("finished", "failed"):
            sock.close()
            return (message["kind"], finals if message["kind"] == "finished" else message.get("error"))


def face_client(path, payload, deadline, stats, expected):
    while time.time() < deadline:
        start = time.time()
        try:
            result = face_session(path, payload)
        except OSError as error:
            stats.fail("face %s" % error)
            continue
        if result and result[0] == "finished" and expected in " ".join(result[1]).lower():
            stats.ok("face", time.time() - start)
        elif result and result[0] == "rejected" and result[1].get("code") == "busy":
            stats.count("face_busy_backpressure")
            time.sleep(0.5)
        else:
            stats.fail("face %r" % (result,))


def stream_session(url, pcm16, pace, expected, stats, abandon=False):
    """One live stream: create, follow events, send 0.5 s chunks paced, finish."""
    host, port = url.replace("http://", "").split(":")
    control = http.client.HTTPConnection(host, int(port), timeout=300)
    control.request("POST", "/v1/audio/streams?encoding=s16le&sample_rate=16000&language=en")
    created = control.getresponse()
    body = created.read()
    if created.status == 503:
        return ("busy", None)
    if created.status != 201:
        return ("create %d %s" % (created.status, body[:200]), None)
    stream_id = json.loads(body)["id"]
    events = []
    first_event = {}

    def follow():
        conn = http.client.HTTPConnection(host, int(port), timeout=300)
        conn.request("GET", "/v1/audio/streams/%s/events" % stream_id)
        response = conn.getresponse()
        name = None
        while True:
            line = response.readline()
            if not line:
                break
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
                first_event.setdefault("t", time.time())
            elif line.startswith("data: "):
                events.append((name, json.loads(line[6:]), time.time()))
        conn.close()

    follower = threading.Thread(target=follow)
    follower.start()
    chunk = 16000  # 0.5 s of s16le
    start = time.time()
    for offset in range(0, len(pcm16), chunk):
        last = offset + chunk >= len(pcm16)
        if abandon and offset >= len(pcm16) // 2:
            break  # vanish mid-audio: no finish, no DELETE
        control.request("POST", "/v1/audio/streams/%s/audio%s" % (stream_id, "?finish=true" if last else ""),
                        body=pcm16[offset:offset + chunk], headers={"Content-Type": "application/octet-stream"})
        answer = control.getresponse()
        answer.read()
        if answer.status != 200:
            control.close()
            return ("audio %d" % answer.status, None)
        wake = start + (offset + chunk) / 32000.0 / pace
        time.sleep(max(0, wake - time.time()))
    sent = time.time()
    control.close()
    if abandon:
        return ("abandoned", stream_id)
    follower.join(300)
    if not events or events[-1][0] != "done":
        return ("no done: %r" % [e[0] for e in events][-5:], None)
    if expected not in events[-1][1]["text"].lower():
        return ("wrong text %r" % events[-1][1]["text"], None)
    stats.ok("stream_final", events[-1][2] - sent)
    if "t" in first_event:
        with stats.lock:
            stats.latencies["stream_first_event"].append(first_event["t"] - start)
    return ("done", None)


def stream_client(url, pcm16, pace, deadline, stats, expected):
    while time.time() < deadline:
        try:
            result = stream_session(url, pcm16, pace, expected, stats)
        except OSError as error:
            stats.fail("stream %s" % error)
            continue
        if result[0] == "busy":
            stats.count("stream_busy_backpressure")
            time.sleep(0.5)
        elif result[0] != "done":
            stats.fail("stream %s" % result[0])


def health_sampler(url, stop, samples):
    while not stop.is_set():
        try:
            out = subprocess.run(["curl", "-s", "--max-time", "5", url + "/health"], capture_output=True, text=True)
            memory = json.loads(out.stdout).get("memory", {})
            samples.append((time.time(), memory.get("in_use_mb"), memory.get("held_free_mb")))
        except (ValueError, OSError):
            pass
        stop.wait(2)


def rss_sampler(pid, stop, samples):
    while not stop.is_set():
        try:
            with open("/proc/%d/status" % pid) as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        samples.append((time.time(), int(line.split()[1]) / 1024))
        except FileNotFoundError:
            return
        stop.wait(0.5)


def quarters(values):
    if len(values) < 4:
        return [values] if values else []
    size = len(values) // 4
    return [values[i * size:(i + 1) * size] if i < 3 else values[3 * size:] for i in range(4)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--http-clients", type=int, default=6)
    parser.add_argument("--face-clients", type=int, default=2)
    parser.add_argument("--clip", default=os.path.join(ROOT, "..", "shared", "corpus", "audio", "jfk", "jfk_openai_whisper.wav"))
    parser.add_argument("--expect", default="ask not what your country")
    parser.add_argument("--timeout-seconds", type=int, default=5)
    parser.add_argument("--stream-clients", type=int, default=0)
    parser.add_argument("--stream-pace", type=float, default=2.0, help="audio sent at this many x real time")
    parser.add_argument("--allocator", choices=["tuned", "default"], default="tuned")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "speech"))
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="speech-serve-load-")
    sock_path = os.path.join(folder, "speech.sock")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    if args.allocator == "default":
        env["SPEECHCOMPAT_SERVE_ALLOCATOR"] = "default"
    server = subprocess.Popen([args.binary, "serve", "--listen", "127.0.0.1:0",
                               "--socket", sock_path, "--model", "whisper-tiny.en", "--max-upload-mb", "20",
                               "--max-queue", "4", "--max-sessions", "4", "--timeout-seconds", str(args.timeout_seconds),
                               "--max-streams", "4", "--stream-idle-seconds", "5", "--workers", str(args.workers),
                               "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    started = json.loads(server.stdout.readline())
    url = started["listening"]
    stats = Stats()
    samples = []
    stop = threading.Event()
    sampler = threading.Thread(target=rss_sampler, args=(server.pid, stop, samples))
    sampler.start()
    pcm = read_samples(args.clip)
    payload = struct.pack("<%df" % len(pcm), *pcm)
    pcm16 = struct.pack("<%dh" % len(pcm), *[max(-32768, min(32767, int(round(x * 32768)))) for x in pcm])
    memory = []
    health_stop = threading.Event()
    health = threading.Thread(target=health_sampler, args=(url, health_stop, memory))
    # Warm up both models (first face session loads whisper-base), then measure.
    http_post(url, args.clip, 300)
    face_session(sock_path, payload)
    if args.stream_clients:
        stream_session(url, pcm16, 8.0, args.expect, Stats())
    rss_start = samples[-1][1] if samples else None
    health.start()

    deadline = time.time() + args.seconds
    threads = [threading.Thread(target=http_client, args=(url, args.clip, deadline, stats, args.expect))
               for _ in range(args.http_clients)]
    threads += [threading.Thread(target=face_client, args=(sock_path, payload, deadline, stats, args.expect))
                for _ in range(args.face_clients)]
    threads += [threading.Thread(target=stream_client, args=(url, pcm16, args.stream_pace, deadline, stats, args.expect))
                for _ in range(args.stream_clients)]
    for t in threads:
        t.start()

    # An HTTP client killed mid-request.
    killed = subprocess.Popen(["curl", "-s", "-F", "file=@" + args.clip, url + "/v1/audio/transcriptions"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    killed.kill()
    killed.wait()
    stats.count("http_killed_mid_request")
    # A face client that vanishes mid-session.
    result = face_session(sock_path, payload, abandon=True)
    stats.count("face_abandoned_mid_session" if result and result[0] == "abandoned" else "face_abandon_refused")
    # A live stream abandoned mid-audio (the service's idle timeout must end it).
    if args.stream_clients:
        abandoned = stream_session(url, pcm16, args.stream_pace, args.expect, stats, abandon=True)
        stats.count("stream_abandoned_mid_audio" if abandoned[0] == "abandoned" else "stream_abandon_" + abandoned[0])
    # An oversized upload.
    big = os.path.join(folder, "big.bin")
    with open(big, "wb") as f:
        f.write(b"\0" * (30 * 1024 * 1024))
    status, body = http_post(url, big, 60)
    if status == 413:
        stats.count("oversized_413")
    else:
        stats.fail("oversized upload answered %s %s" % (status, body[:200]))
    # A slow client: half a request line, then nothing.
    host, port = url.replace("http://", "").split(":")
    slow = socket.create_connection((host, int(port)))
    slow.sendall(b"POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\n")
    slow.settimeout(args.timeout_seconds + 20)
    slow_start = time.time()
    try:
        closed = slow.recv(1) == b""
    except (socket.timeout, ConnectionResetError):
        closed = False
    slow_seconds = time.time() - slow_start
    slow.close()
    if closed:
        stats.count("slow_client_closed")
    else:
        stats.fail("slow client not closed after %.1f s" % slow_seconds)

    for t in threads:
        t.join()
    time.sleep(7)  # longer than --stream-idle-seconds: abandoned streams are ended by now
    health_stop.set()
    health.join()
    final_health = subprocess.run(["curl", "-s", url + "/health"], capture_output=True, text=True).stdout
    alive = server.poll() is None and '"ok"' in final_health
    if not alive:
        stats.fail("service not healthy at the end: %r" % final_health)
    elif args.stream_clients and json.loads(final_health).get("streams") != 0:
        stats.fail("streams still open at the end: %r" % final_health)
    # Memory once the load is over: a leak keeps in_use_mb up, a held heap keeps only RSS up.
    idle_memory = json.loads(final_health).get("memory", {}) if alive else {}
    idle_memory["rss_mb"] = samples[-1][1] if samples else None
    server.send_signal(signal.SIGTERM)
    code = server.wait(timeout=60)
    stop.set()
    sampler.join()
    if code != 0:
        stats.fail("serve exited %d on SIGTERM" % code)
    rss = [mb for _, mb in samples]
    measured = [mb for t, mb in samples if t >= deadline - args.seconds]
    summary = {
        "seconds": args.seconds, "http_clients": args.http_clients, "face_clients": args.face_clients,
        "http_requests_ok": len(stats.latencies["http"]), "face_sessions_ok": len(stats.latencies["face"]),
        "http_latency_p50_s": percentile(stats.latencies["http"], 50),
        "http_latency_p95_s": percentile(stats.latencies["http"], 95),
        "face_latency_p50_s": percentile(stats.latencies["face"], 50),
        "face_latency_p95_s": percentile(stats.latencies["face"], 95),
        "rss_after_warmup_mb": rss_start, "rss_peak_mb": max(rss) if rss else None,
        "rss_end_mb": rss[-1] if rss else None,
        "rss_first_half_peak_mb": max(measured[: len(measured) // 2]) if len(measured) > 1 else None,
        "rss_second_half_peak_mb": max(measured[len(measured) // 2:]) if len(measured) > 1 else None,
        "rss_quarter_peaks_mb": [max(q) for q in quarters(measured)],
        "in_use_quarter_peaks_mb": [max(q) for q in quarters([m[1] for m in memory if m[1] is not None])],
        "held_free_quarter_peaks_mb": [max(q) for q in quarters([m[2] for m in memory if m[2] is not None])],
        "stream_clients": args.stream_clients, "streams_ok": len(stats.latencies["stream_final"]),
        "stream_final_after_last_chunk_p50_s": percentile(stats.latencies["stream_final"], 50),
        "stream_final_after_last_chunk_p95_s": percentile(stats.latencies["stream_final"], 95),
        "stream_first_event_p50_s": percentile(stats.latencies["stream_first_event"], 50),
        "allocator": args.allocator, "workers": args.workers,
        "idle_after_load": idle_memory,
        "slow_client_closed_after_s": round(slow_seconds, 1), "events": stats.counts,
        "failures": stats.failures, "serve_exit": code,
    }
    print(json.dumps(summary, indent=2))
    sys.exit(1 if stats.failures else 0)


if __name__ == "__main__":
    main()
