// A `ROLE=worker` service in its own process (node + tsx), on a PostgreSQL database.
import { type ChildProcess, spawn } from 'node:child_process'

export interface WorkerProcess {
  child: ChildProcess
  /** SIGKILL: dies at once, finishing and releasing nothing. */
  kill(): Promise<void>
}

export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  // Vitest puts BASE_URL=/ in the environment; the worker must not inherit it.
  const { BASE_URL: _vite, ...inherited } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      LOG_LEVEL: 'silent',
      ...env,
      ROLE: 'worker',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Vitrine is running (worker)')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)))
  })
  return {
    child,
    async kill() {
      if (child.exitCode !== null || child.signalCode) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    },
  }
}
