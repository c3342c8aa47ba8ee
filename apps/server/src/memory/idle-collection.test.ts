import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectWhenIdle, memoryReducingCollection, type IdleCollection } from './idle-collection.ts';

// A server that only emits what collectWhenIdle listens to: 'request', and 'close' on the reply.
class FakeServer extends EventEmitter {
  request(): () => void {
    const reply = new EventEmitter();
    this.emit('request', {}, reply);
    return () => reply.emit('close');
  }
  burst(count: number): void {
    for (let i = 0; i < count; i++) this.request()();
  }
}

const MB = 2 ** 20;

describe('giving memory back when the server goes quiet', () => {
  let server: FakeServer;
  let resident: number;
  let collections: IdleCollection;
  const collect = vi.fn(() => {
    resident -= 10 * MB;
  });

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer();
    resident = 100 * MB;
    collect.mockClear();
    collections = collectWhenIdle(server, { idleMs: 500, minGrowthBytes: 4 * MB, collect, residentBytes: () => resident });
  });
  afterEach(() => {
    collections.stop();
    vi.useRealTimers();
  });

  it('collects once after a burst, when no request has come for the quiet time', () => {
    server.burst(100);
    resident += 30 * MB;
    vi.advanceTimersByTime(400);
    expect(collect).not.toHaveBeenCalled();
    // Quiet is noticed between one and two quiet times after the last request.
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(collections.collections).toBe(1);
  });

  it('does not collect while requests keep coming', () => {
    resident += 30 * MB;
    for (let tick = 0; tick < 20; tick++) {
      server.burst(5);
      vi.advanceTimersByTime(200);
    }
    expect(collect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('does not collect while a request is in flight, however long it takes', () => {
    server.burst(50);
    const slow = server.request();
    resident += 30 * MB;
    vi.advanceTimersByTime(10_000);
    expect(collect).not.toHaveBeenCalled();
    slow();
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('stays asleep once collected: no second collection and no timer while nothing happens', () => {
    server.burst(100);
    resident += 30 * MB;
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(collect).toHaveBeenCalledTimes(1);
  });

  it('collects again after the next busy period that grew memory', () => {
    server.burst(100);
    resident += 30 * MB;
    vi.advanceTimersByTime(1_000);
    server.burst(100);
    resident += 30 * MB;
    vi.advanceTimersByTime(1_000);
    expect(collect).toHaveBeenCalledTimes(2);
  });

  it('leaves a trickle of requests alone when memory did not grow', () => {
    for (let i = 0; i < 10; i++) {
      server.burst(1);
      vi.advanceTimersByTime(2_000);
    }
    resident += 1 * MB;
    server.burst(1);
    vi.advanceTimersByTime(2_000);
    expect(collect).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops listening when stopped', () => {
    collections.stop();
    server.burst(100);
    resident += 30 * MB;
    vi.advanceTimersByTime(1_000);
    expect(collect).not.toHaveBeenCalled();
    expect(server.listenerCount('request')).toBe(0);
  });
});

describe('on a real HTTP server', () => {
  let server: Server;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts real requests and collects with V8 once they stop, without exposing gc to the server', async () => {
    let released = false;
    const collect = memoryReducingCollection();
    server = createServer((_request, response) => {
      response.end('ok');
    });
    let resident = 0;
    const collection = collectWhenIdle(server, {
      idleMs: 20,
      minGrowthBytes: 1,
      residentBytes: () => resident,
      collect: () => {
        collect();
        released = true;
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    resident = 50;
    for (let i = 0; i < 20; i++) expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    await vi.waitFor(() => expect(released).toBe(true), { timeout: 5_000, interval: 20 });
    expect(collection.collections).toBe(1);
    expect('gc' in globalThis).toBe(false);
    collection.stop();
  });
});
