/** `--shard` of the COCO tasks: the one parser of `@cvdevkit/formats` ("i/n", "auto", "auto/n"), blocks of the sorted images. */
export { parseShard, shardRange, type Shard } from '@cvdevkit/formats';
