#!/bin/sh
# Writes Corpora/logs/bad.jsonl: one line per kind of problem, with good lines between them.
# Written for BubbleLayout. printf writes the invalid UTF-8 byte for real.
cd "$(dirname "$0")/../logs" || exit 1
{
printf '%s\n' '{"id":"g1","type":"text","from":"Alice","date":"2024-05-01T10:00:00Z","text":"good line before the problems"}'
printf '%s\n' '{"id":"b1","type":"text","from":"Alice" "date":"2024-05-01T10:01:00Z","text":"no comma"}'
printf '%s\n' '{"id":"g2","type":"text","from":"Bob","date":"2024-05-01T10:02:00Z","text":"good"}'
printf '%s\n' '{"id":"b2","type":"text","from":"Bob","text":"no date here"}'
printf '%s\n' '{"id":"g3","type":"image","from":"Alice","date":1714557780,"image":{"width":800,"height":600,"name":"ok.jpg"}}'
printf '%s\n' '{"id":"b3","type":"text","from":"Alice","outgoing":"yes","date":"2024-05-01T10:04:00Z","text":"outgoing is a string"}'
printf '%s\n' '{"id":"g4","type":"system","date":"2024-05-01T10:05:00+02:00","text":"Bob pinned a message"}'
printf '%s\n' '{"id":"b4","type":"video","from":"Bob","date":"2024-05-01T10:06:00Z","text":"an unknown type"}'
printf '%s\n' '{"id":"g5","type":"text","from":"Bob","date":"2024-05-01T10:07:00.5Z","text":"good, with a fraction"}'
printf '{"id":"b5","type":"text","from":"Alice","date":"2024-05-01T10:08:00Z","text":"caf\351 in Latin-1"}\n'
printf '%s\n' '{"id":"g6","type":"text","from":"Alice","date":"2024-05-01T10:09:00Z","text":"good"}'
printf '%s\n' '{"id":"b6","type":"text","from":"Bob","date":"yesterday","text":"unreadable date"}'
printf '%s\n' ''
printf '%s\n' '{"id":"b7","type":"text","from":"Bob","date":"2024-05-01T10:11:00Z","status":"seen","text":"bad status"}'
printf '%s\n' '{"id":"g7","type":"text","from":"Alice","date":"2024-05-01T10:12:00Z","status":"read","text":"good"}'
printf '%s\n' '[1,2,3]'
printf '%s\n' '{"id":"b9","type":"text","from":"Alice","date":"2024-05-01T10:14:00","text":"date without an offset"}'
printf '%s\n' '{"id":"g8","type":"text","from":"Bob","date":"2024-05-01T10:15:00Z","text":"the last good line"}'
} > bad.jsonl
