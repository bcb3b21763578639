import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Stands for the argument at `index` while the query is built once. */
class Argument {
  constructor(readonly index: number) {}
}

/**
 * A query Kysely builds and compiles once: each call runs that SQL with its own values. Kysely
 * builds and compiles every query anew, which for the small queries of a command cost about as
 * much as the database's own work (docs/architecture.md, "Where a command's time goes"), so the
 * queries every command runs are kept this way.
 *
 * `build` must use each argument as a value of the query (a parameter), never to shape its SQL:
 * the first call checks that every argument became a parameter (one or more), and throws otherwise.
 * Every call shares one query id: right while the database has no plugins (database.ts), which
 * may keep state per query id between a query and its result.
 */
export function preparedQuery<DB, Args extends unknown[], Row>(
  db: Kysely<DB>,
  arity: Args['length'],
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; slots: (number | undefined)[] } | undefined;
  return async (...args) => {
    compiled ??= compileOnce(arity, build);
    const { query, slots } = compiled;
    const parameters = query.parameters.map((value, i) => {
      const slot = slots[i];
      return slot === undefined ? value : args[slot];
    });
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}

function compileOnce<Args extends unknown[], Row>(
  arity: number,
  build: (...args: Args) => Compilable<Row>,
): { query: CompiledQuery<Row>; slots: (number | undefined)[] } {
  const marks = Array.from({ length: arity }, (_, i) => new Argument(i));
  const query = build(...(marks as Args)).compile();
  const slots = query.parameters.map((value) =>
    value instanceof Argument ? value.index : undefined,
  );
  for (const mark of marks) {
    if (!slots.includes(mark.index))
      throw new Error(`preparedQuery: argument ${mark.index} is not a parameter of the query`);
  }
  return { query, slots };
}

/** Shapes kept at most: past it the cache starts afresh (a shape costs one compile to remake). */
const MAX_SHAPES = 256;

/**
 * Queries whose SQL depends on a few choices as well as on values (which filters a search uses,
 * its order, how many tags it names): one `preparedQuery` per shape. `shape` must name every
 * choice that changes the SQL or the number of arguments; `build` gets the arguments as
 * placeholders, as `preparedQuery`'s does.
 */
export function preparedShapes<DB>(db: Kysely<DB>) {
  const byShape = new Map<string, (...args: unknown[]) => Promise<unknown[]>>();
  return function run<Row>(
    shape: string,
    args: readonly unknown[],
    build: (...args: unknown[]) => Compilable<Row>,
  ): Promise<Row[]> {
    let query = byShape.get(shape);
    if (!query) {
      if (byShape.size >= MAX_SHAPES) byShape.clear();
      query = preparedQuery(db, args.length, build);
      byShape.set(shape, query);
    }
    return query(...args) as Promise<Row[]>;
  };
}
