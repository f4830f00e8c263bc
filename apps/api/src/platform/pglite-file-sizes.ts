import type { PGlite } from "@electric-sql/pglite";

/**
 * The embedded database on disk keeps its files in Emscripten's NODEFS, which answers every `lseek(fd, 0, SEEK_END)`
 * with an `fstat` of the real file (about 3 µs of CPU each here). PostgreSQL asks that of each index of each table it
 * plans (the relation's size, smgrnblocks), so a ticket list page, planned with its values, made about 440 of them: a
 * fifth of the request's CPU (docs/benchmarks.md, "the embedded database's file sizes").
 *
 * This process is the only one that writes the data directory (platform/data-dir-lock.ts), and it writes it only
 * through that filesystem, so a file's size is remembered per file node from the first such seek until something
 * writes it, truncates it or maps it back through the filesystem, which forget it first. Nothing else changes: a
 * seek from the end answers what the file's size was after its last change, as the `fstat` did.
 */

const SEEK_END = 2;

type Op = (this: unknown, ...args: unknown[]) => unknown;
/** A file's node: the same object for every descriptor of one path, until the file is removed. */
type FsNode = object;
/** Emscripten's operation tables: a stream operation takes the stream first, a node operation the node. */
interface NodeFs {
  stream_ops: Record<string, Op | undefined>;
  node_ops: Record<string, Op | undefined>;
}

const wrapped = new WeakSet<NodeFs>();

/** Remembers file sizes in this PGlite's NODEFS (see above); false when its build exposes no NODEFS to wrap. */
export function rememberFileSizes(client: PGlite): boolean {
  const nodeFs = (client as unknown as { mod?: { NODEFS?: NodeFs } }).mod?.NODEFS;
  const seek = nodeFs?.stream_ops?.llseek;
  if (!nodeFs || !seek || !nodeFs.node_ops?.setattr) return false;
  if (wrapped.has(nodeFs)) return true;
  wrapped.add(nodeFs);
  const sizes = new WeakMap<FsNode, number>();
  const nodeOfStream = (stream: unknown) => (stream as { node: FsNode }).node;
  nodeFs.stream_ops.llseek = function (stream, offset, whence) {
    if (whence !== SEEK_END) return seek.call(this, stream, offset, whence);
    const node = nodeOfStream(stream);
    let size = sizes.get(node);
    if (size === undefined) {
      size = seek.call(this, stream, 0, SEEK_END) as number;
      sizes.set(node, size);
    }
    const position = (offset as number) + size;
    // A position before the start is the original's error to raise.
    return position < 0 ? seek.call(this, stream, offset, whence) : position;
  };
  // Whatever may change a file's size forgets it, before and after (an operation that fails half-way leaves no size
  // behind either).
  const forgetting = (op: Op, nodeOf: (first: unknown) => FsNode): Op =>
    function (...args) {
      const node = nodeOf(args[0]);
      sizes.delete(node);
      try {
        return op.apply(this, args);
      } finally {
        sizes.delete(node);
      }
    };
  for (const name of ["write", "setattr", "msync", "allocate"]) {
    const op = nodeFs.stream_ops[name];
    if (op) nodeFs.stream_ops[name] = forgetting(op, nodeOfStream);
  }
  nodeFs.node_ops.setattr = forgetting(nodeFs.node_ops.setattr, (node) => node as FsNode);
  return true;
}
