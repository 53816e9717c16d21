/*
 * The types of handlers (behaviour a spec cannot say, in code of the designer's, by
 * operationId), apart from the code that runs them: adapters and options name them without
 * importing the core's answering.
 */

/** One request, as a handler sees it. */
export interface HandlerRequest {
  /** Upper case. */
  readonly method: string;
  /** The decoded path. */
  readonly path: string;
  readonly operationId: string;
  /** The path's parameters by name (`{pk}` → `params.pk`). */
  readonly params: Readonly<Record<string, string>>;
  /** Each query parameter's last value (Django's `QueryDict.get`). */
  readonly query: Readonly<Record<string, string>>;
  /** Every value of each query parameter. */
  readonly queryAll: Readonly<Record<string, readonly string[]>>;
  /** The body as validated (the serializer's values), else as parsed; undefined without one. */
  readonly body: unknown;
  /** A request header by name, any case. */
  header(name: string): string | undefined;
  /** The client is authenticated (a valid token, a logged-in session), as `request.user` would say. */
  readonly user: boolean;
}

/** What a handler answers: a status, a JSON body (none for 204), headers of its own. */
export interface HandlerAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type HandlerResult = HandlerAnswer | undefined;

/** A collection's items as a handler reads and changes them (a ModelViewSet's table). */
export interface CollectionAccess {
  /** The items now, in the collection's order, without their urls. */
  all(): Record<string, unknown>[];
  /** The item whose lookup field (`pk`) is `pk`, if any. */
  get(pk: string | number): Record<string, unknown> | undefined;
  /**
   * The pk a path's `{pk}` text names, read as the view's get_object reads it: for an integer pk
   * Python's int() (`01`, `+1`, ` 1` and `١` all name 1); undefined where int() refuses the text
   * (the view answers DRF's bare "Not found.").
   */
  lookup(text: string): string | undefined;
  /** Adds an item: its pk given the next one when the collection numbers them, defaults filled. */
  create(values: Record<string, unknown>): Record<string, unknown>;
  /** Changes an item's members; undefined when there is none of that pk. */
  update(pk: string | number, values: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Removes an item; false when there is none of that pk. */
  remove(pk: string | number): boolean;
  /** The item as the collection answers it (its `url` first, members in the schema's order). */
  represent(item: Record<string, unknown>): Record<string, unknown>;
}

/** What a handler can do besides answering. */
export interface HandlerContext {
  /** A collection by resource name (`desk`) or path (`/api/v1/desk`). Throws for an unknown one. */
  collection(name: string): CollectionAccess;
  /** 200 (or `status`) with a JSON body. */
  ok(body: unknown, status?: number): HandlerAnswer;
  /** 201 with the item as its collection answers it, and its url in `Location`. */
  created(item: Record<string, unknown>, collection: string): HandlerAnswer;
  /** 204, no body. */
  noContent(): HandlerAnswer;
  /** DRF's 404: `{"detail": "Not found."}`, or the detail given. */
  notFound(detail?: string): HandlerAnswer;
  /** DRF's 400 with field errors (`{"number": ["This field is required."]}`) or a list. */
  badRequest(errors: Readonly<Record<string, readonly string[]>> | readonly string[]): HandlerAnswer;
  /** Any status with `{"detail": ...}`, as an APIException renders. */
  error(status: number, detail: string): HandlerAnswer;
  /** What the stub answers without this handler. */
  declared(): HandlerAnswer | Promise<HandlerAnswer>;
  /** The stub's clock (`--now` fixes it). */
  now(): Date;
}

export type Handler = (request: HandlerRequest, context: HandlerContext) => HandlerResult | Promise<HandlerResult>;

/** Handlers by operationId. */
export type Handlers = Readonly<Record<string, Handler>>;
