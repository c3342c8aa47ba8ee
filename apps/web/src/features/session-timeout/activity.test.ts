import { describe, expect, it, vi } from 'vitest';
import { createSessionActivity, keepsSessionAlive, sessionKey } from './activity.ts';

/** Two tabs' channels, joined by hand so delivery is synchronous and certain. */
function channelPair() {
  const make = () => {
    const target = new EventTarget();
    const channel = {
      peer: null as null | { dispatchEvent(e: Event): boolean },
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
      dispatchEvent: target.dispatchEvent.bind(target),
      postMessage(data: unknown) {
        channel.peer?.dispatchEvent(new MessageEvent('message', { data }));
      },
      close: vi.fn(),
    };
    return channel;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a as unknown as BroadcastChannel, b as unknown as BroadcastChannel] as const;
}

describe('session activity', () => {
  it('keeps the latest call of the session that kept it alive', () => {
    const activity = createSessionActivity(null);
    expect(activity.lastFor('s1')).toBeNull();
    activity.record({ at: 1000, path: '/user', sessionId: 's1' });
    activity.record({ at: 900, path: '/user/program-names', sessionId: 's1' });
    expect(activity.lastFor('s1')).toBe(1000);
    expect(activity.lastFor('s2')).toBeNull();
  });

  it('does not count calls that pass no session guard', () => {
    const activity = createSessionActivity(null);
    for (const path of ['/viewConfig/client', '/viewConfig/bundle/fr-FR', '/login', '/logout']) {
      expect(keepsSessionAlive(path)).toBe(false);
      activity.record({ at: 1000, path, sessionId: 's1' });
    }
    expect(activity.lastFor('s1')).toBeNull();
    expect(keepsSessionAlive('/ots/redeem')).toBe(true);
  });

  it('tells the other tabs of the same session, and only those listen', () => {
    const [one, two] = channelPair();
    const tabOne = createSessionActivity(one);
    const tabTwo = createSessionActivity(two);
    const heard = vi.fn();
    tabTwo.subscribe(heard);

    tabOne.record({ at: 5000, path: '/user', sessionId: 'shared' });
    expect(tabTwo.lastFor('shared')).toBe(5000);
    expect(tabTwo.lastFor('other')).toBeNull();
    expect(heard).toHaveBeenCalledOnce();
  });

  it('sends a hash of the session id, never the id', () => {
    const sent: unknown[] = [];
    const channel = { addEventListener() {}, removeEventListener() {}, postMessage: (m: unknown) => sent.push(m), close() {} };
    createSessionActivity(channel as unknown as BroadcastChannel).record({ at: 1, path: '/user', sessionId: 'secret-session-id' });
    expect(JSON.stringify(sent)).not.toContain('secret-session-id');
    expect(sent).toEqual([{ key: sessionKey('secret-session-id'), at: 1 }]);
  });
});
