#!/usr/bin/env node
// node main.mjs [--port 8080] [--host 127.0.0.1] [--data ./data] [--maps ./maps]
//               [--max-body BYTES]
// Starts the field-collection example server (server.mjs); README.md.
import { parseArgs } from 'node:util';
import { createFieldServer } from './server.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string', default: './data' },
    maps: { type: 'string', default: './maps' },
    'max-body': { type: 'string', default: String(1024 * 1024) },
  },
});

const server = createFieldServer({
  data: values.data,
  maps: values.maps,
  maxBodyBytes: Number(values['max-body']),
});
server.listen(Number(values.port), values.host, () => {
  const { address, port } = server.address();
  console.log(`webprof field server on http://${address}:${port} (data ${values.data}, maps ${values.maps})`);
});
