// Given to the test processes as `--import`; worker threads inherit it.
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
