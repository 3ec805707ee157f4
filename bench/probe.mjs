// Loaded into the benchmarked server with `node --import`: measures the event-loop delay and answers
// over the IPC channel the runner opened. `reset` starts a window, `read` answers its percentiles (ms).
import { monitorEventLoopDelay } from 'node:perf_hooks';

const h = monitorEventLoopDelay({ resolution: 5 });
h.enable();
if (process.send) {
  process.on('message', (m) => {
    if (m === 'eld:reset') h.reset();
    if (m === 'eld:read')
      process.send({
        eld: {
          p50: h.percentile(50) / 1e6,
          p99: h.percentile(99) / 1e6,
          max: h.max / 1e6,
          mean: h.mean / 1e6,
        },
      });
  });
  // The IPC channel must not keep a server that is shutting down alive.
  process.channel?.unref();
}
