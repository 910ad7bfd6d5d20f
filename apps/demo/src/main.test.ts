import { startDemo } from './main';

test('the demo starts svc and answers on its URL', async () => {
  const server = await startDemo({
    env: {},
    database: { memory: true },
    port: 0,
    logLevel: 'silent',
  });
  try {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe('svc');
  } finally {
    await server.close();
  }
});
