/**
 * Writes a tiny BERT-shaped sentence-embedding model that transformers.js
 * can load from disk: `config.json`, a WordPiece `tokenizer.json`,
 * `tokenizer_config.json` and `onnx/model.onnx`. The ONNX graph looks each
 * token up in a 4-column embedding table and zeroes padding
 * (`last_hidden_state = Gather(table, input_ids) * attention_mask`), so mean
 * pooling gives vectors whose geometry the test chooses: bread words point
 * one way, music words another. The protobuf is encoded by hand (a few
 * varints and length-delimited fields) to need no ONNX tooling.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const TINY_DIMENSIONS = 4;

const TABLE: Record<string, number[]> = {
  '[PAD]': [0, 0, 0, 0],
  '[UNK]': [0, 0, 0, 1],
  '[CLS]': [0, 0, 0, 0],
  '[SEP]': [0, 0, 0, 0],
  bread: [1, 0.1, 0, 0],
  loaf: [0.9, 0.2, 0, 0],
  oven: [0.7, 0.5, 0, 0],
  violin: [0, 0, 1, 0.1],
  music: [0, 0, 0.8, 0.3],
  concert: [0, 0.1, 0.7, 0.4],
};

export async function writeTinyModel(dir: string): Promise<void> {
  const vocab = Object.keys(TABLE);
  await mkdir(path.join(dir, 'onnx'), { recursive: true });
  await writeFile(path.join(dir, 'onnx', 'model.onnx'), onnxModel(vocab));
  await writeFile(
    path.join(dir, 'config.json'),
    JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: TINY_DIMENSIONS, vocab_size: vocab.length }),
  );
  await writeFile(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer(vocab)));
  await writeFile(
    path.join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[UNK]',
    }),
  );
}

// --- protobuf wire format -------------------------------------------------

function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

const int = (field: number, value: number): Uint8Array => Uint8Array.from([...varint(field << 3), ...varint(value)]);
const bytes = (field: number, data: Uint8Array): Uint8Array =>
  concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(data.length)]), data]);
const str = (field: number, text: string): Uint8Array => bytes(field, new TextEncoder().encode(text));
const msg = (field: number, ...parts: Uint8Array[]): Uint8Array => bytes(field, concat(parts));

// --- ONNX (onnx.proto field numbers) ---------------------------------------

const FLOAT = 1;
const INT64 = 7;

/** TensorShapeProto.Dimension: a fixed size or a named symbolic one. */
const dim = (d: number | string): Uint8Array => (typeof d === 'number' ? msg(1, int(1, d)) : msg(1, str(2, d)));
/** ValueInfoProto { name, type: TypeProto { tensor_type { elem_type, shape } } } */
const valueInfo = (field: number, name: string, elemType: number, dims: (number | string)[]): Uint8Array =>
  msg(field, str(1, name), msg(2, msg(1, int(1, elemType), msg(2, ...dims.map(dim)))));
/** AttributeProto of type INT (2). */
const intAttribute = (name: string, value: number): Uint8Array => msg(5, str(1, name), int(3, value), int(20, 2));
/** NodeProto { input*, output*, name, op_type, attribute* } */
const node = (op: string, inputs: string[], outputs: string[], ...attributes: Uint8Array[]): Uint8Array =>
  msg(1, ...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, `${op}_${outputs[0] ?? ''}`), str(4, op), ...attributes);
/** TensorProto { dims*, data_type, name, raw_data } as a graph initializer. */
const initializer = (name: string, type: number, dims: number[], raw: Uint8Array): Uint8Array =>
  msg(5, ...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw));

function onnxModel(vocab: string[]): Uint8Array {
  const table = new Float32Array(vocab.length * TINY_DIMENSIONS);
  vocab.forEach((word, row) => (TABLE[word] ?? []).forEach((x, col) => (table[row * TINY_DIMENSIONS + col] = x)));
  const axes = new BigInt64Array([-1n]);
  const graph = msg(
    7,
    node('Gather', ['table', 'input_ids'], ['gathered'], intAttribute('axis', 0)),
    node('Cast', ['attention_mask'], ['mask_float'], intAttribute('to', FLOAT)),
    node('Unsqueeze', ['mask_float', 'axes'], ['mask_3d']),
    node('Mul', ['gathered', 'mask_3d'], ['last_hidden_state']),
    str(2, 'tiny-sentence-embedder'),
    initializer('table', FLOAT, [vocab.length, TINY_DIMENSIONS], new Uint8Array(table.buffer)),
    initializer('axes', INT64, [1], new Uint8Array(axes.buffer)),
    valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence']),
    valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', TINY_DIMENSIONS]),
  );
  // ModelProto { ir_version: 8, producer_name, graph, opset_import { domain: '', version: 13 } }
  return concat([int(1, 8), str(2, 'dexi-vault tests'), graph, msg(8, str(1, ''), int(2, 13))]);
}

// --- tokenizer.json (Hugging Face tokenizers format) ------------------------

function tokenizer(vocab: string[]): unknown {
  const special = (id: number, content: string): unknown => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { SpecialToken: { id: '[CLS]', type_id: 0 } };
  const sep = (typeId: number): unknown => ({ SpecialToken: { id: '[SEP]', type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: vocab.slice(0, 4).map((content, id) => special(id, content)),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0)],
      pair: [cls, { Sequence: { id: 'A', type_id: 0 } }, sep(0), { Sequence: { id: 'B', type_id: 1 } }, sep(1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((word, id) => [word, id])),
    },
  };
}
