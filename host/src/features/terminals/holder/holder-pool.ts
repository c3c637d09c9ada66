// The service's terminal holders: the one of this build takes new terminals; older ones keep
// serving the terminals they have and exit when the last of them ends.
import type { Logger } from '../../../platform/logging/index.js';
import type { HolderConnection, HolderPty } from './holder-client.js';
import type { HeldTerminal, HolderSpawnRequest } from './holder-protocol.js';
import { connectHolders, ensureHolderSecret, startHolder } from './holder-registry.js';

export interface HolderPoolOptions {
  svcHome: string;
  build: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

export interface HeldByHolder {
  connection: HolderConnection;
  terminal: HeldTerminal;
}

export class HolderPool {
  private readonly connections: HolderConnection[] = [];
  private current: HolderConnection | undefined;
  private starting: Promise<HolderConnection> | undefined;
  private secret: string | undefined;

  constructor(private readonly options: HolderPoolOptions) {}

  /**
   * Connects to every holder that runs (a service that crashed or was upgraded left them), and
   * returns what they hold. A holder of another build is told to retire.
   */
  async reconnect(): Promise<HeldByHolder[]> {
    const held: HeldByHolder[] = [];
    for (const connection of await connectHolders(this.options.svcHome, this.secretOf())) {
      this.adopt(connection);
      if (connection.info.build !== this.options.build) {
        connection.retire();
        this.options.logger.info('a terminal holder of another svc build keeps its terminals until they end', { build: connection.info.build, pid: connection.info.pid });
      }
      for (const terminal of connection.held) held.push({ connection, terminal });
    }
    return held;
  }

  /**
   * Starts a terminal in this build's holder (started when absent or gone). With the holder
   * connected, the request is sent before this returns: the caller goes on while the holder works.
   */
  async spawn(request: HolderSpawnRequest): Promise<HolderPty> {
    return (this.connected() ?? (await this.holder())).spawn(request);
  }

  /** Detaches from every holder: their terminals keep running. */
  close(): void {
    for (const connection of this.connections) connection.close();
  }

  private connected(): HolderConnection | undefined {
    return this.current && !this.current.isClosed ? this.current : undefined;
  }

  private async holder(): Promise<HolderConnection> {
    const connected = this.connected();
    if (connected) return connected;
    this.starting ??= startHolder(this.options.svcHome, this.options.build, this.secretOf(), this.options.env)
      .then((connection) => {
        this.adopt(connection);
        return connection;
      })
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  private adopt(connection: HolderConnection): void {
    this.connections.push(connection);
    if (connection.info.build === this.options.build) this.current = connection;
    connection.onClose(() => {
      const index = this.connections.indexOf(connection);
      if (index !== -1) this.connections.splice(index, 1);
      if (this.current === connection) this.current = undefined;
    });
  }

  private secretOf(): string {
    this.secret ??= ensureHolderSecret(this.options.svcHome);
    return this.secret;
  }
}
