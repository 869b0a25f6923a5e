/** A list's conditions as SQL over a query's parameters (`params` grows), joined by AND. */
export class SqlFilter {
  readonly params: unknown[];
  private readonly parts: string[] = [];

  constructor(first: string, params: unknown[]) {
    this.parts.push(first);
    this.params = params;
  }

  /** Adds `sql`, in which every `$?` is the placeholder of `value`. */
  add(sql: string, value: unknown): this {
    this.params.push(value);
    this.parts.push(sql.replaceAll('$?', `$${this.params.length}`));
    return this;
  }

  get sql(): string {
    return this.parts.join(' AND ');
  }
}
