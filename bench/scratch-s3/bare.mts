import Fastify from 'fastify';
const body = JSON.parse(await (await fetch(process.argv[3]!, { headers: { 'x-api-key': process.argv[4]! } })).text());
const app = Fastify({ logger: false });
app.get('/bare', async () => body);
app.get('/bare/*', async () => body);
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
