import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server } from 'socket.io';
import { ASSIGNMENT_ENDING_EVENTS, OutboxEvent, toPayload } from '../event-catalog';
import { RedisBus } from './redis-bus';
import { SocketDeliveries } from './socket-deliveries';

/**
 * The rooms an event is emitted to. Assignment events (worker_id set) are the worker's own and go to them only. An
 * event for both one agent and one worker (a message in their thread) goes to those two rooms only: the task's room
 * also holds the task's other workers.
 */
export function roomsFor(e: Pick<OutboxEvent, 'agent_id' | 'worker_id' | 'task_id'>): string[] {
  const rooms: string[] = [];
  if (e.agent_id) rooms.push(`agent:${e.agent_id}`);
  if (e.worker_id) rooms.push(`worker:${e.worker_id}`);
  if (e.task_id && e.agent_id && !e.worker_id) rooms.push(`task:${e.task_id}`);
  return rooms;
}

/**
 * Emits published outbox events to socket.io rooms, and has the socket delivery of each offer and money event recorded
 * (SocketDeliveries). In an API process the gateway attaches its server, and the
 * Redis adapter (with REDIS_URL) carries each emit to the clients of every other instance. In a process without a
 * gateway (a separate job runner) a detached server with the same adapter does the broadcasting; without Redis such
 * a process cannot reach any client, which is why several processes require REDIS_URL.
 */
@Injectable()
export class SocketFanout implements OnApplicationShutdown {
  private server: Server | null = null;
  private detached: Server | null = null;

  constructor(
    private readonly bus: RedisBus,
    private readonly deliveries: SocketDeliveries,
  ) {}

  attach(server: Server): void {
    this.withAdapter(server);
    this.server = server;
  }

  /** Installs the Redis adapter on a server (a no-op without Redis). */
  withAdapter(server: Server): Server {
    if (this.bus.pub && this.bus.sub) {
      server.adapter(createAdapter(this.bus.pub, this.bus.sub, { key: this.bus.key('socket.io') }));
    }
    return server;
  }

  emit(events: OutboxEvent[]): void {
    const server = this.target();
    if (!server) return;
    for (const e of events) {
      const rooms = roomsFor(e);
      if (rooms.length > 0) server.to(rooms).emit(e.name, toPayload(e));
      if (e.worker_id && e.task_id && endsAssignment(e.name)) {
        // The worker no longer holds the task: its sockets, on any instance (through the adapter), stop hearing the
        // task's events. Issued right after the ending event, so it takes effect before any later emit.
        server.in(`worker:${e.worker_id}`).socketsLeave(`task:${e.task_id}`);
      }
    }
    this.deliveries.track(server, events);
  }

  async onApplicationShutdown(): Promise<void> {
    // A detached server has no engine to close; only its adapter holds Redis subscriptions.
    const adapter = this.detached?.of('/').adapter as { close?: () => Promise<void> | void } | undefined;
    await adapter?.close?.();
  }

  private target(): Server | null {
    if (this.server) return this.server;
    if (!this.bus.enabled) return null;
    this.detached ??= this.withAdapter(new Server());
    return this.detached;
  }
}

function endsAssignment(name: string): boolean {
  return (ASSIGNMENT_ENDING_EVENTS as readonly string[]).includes(name);
}
