#!/usr/bin/env node
// The realtime bench's bare ceiling: a plain socket.io server (no auth, no engine) whose clients
// join one room, and an HTTP POST /publish that emits the posted body to that room. Prints
// {"port": ...} once listening; GET /rss answers its resident memory.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const http = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/rss') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ rss: process.memoryUsage().rss }));
  }
  if (req.method !== 'POST' || req.url !== '/publish') return res.writeHead(404).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const { channel, event, data } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    io.to(channel).emit('message', { event, channel, data: JSON.stringify(data) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
const io = new Server(http, { path: '/realtime/socket.io', serveClient: false });
io.on('connection', (socket) => {
  socket.on('message', (frame) => {
    if (frame?.event === 'bird:subscribe') {
      void socket.join(frame.data.channel);
      socket.emit('message', {
        event: 'bird_internal:subscription_succeeded',
        channel: frame.data.channel,
        data: '{}',
      });
    }
  });
});
http.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: http.address().port })}\n`),
);
process.on('disconnect', () => process.exit(0));
