/**
 * Text fixtures written from published figures and from the tools' documented formats (the
 * tests also run fio, bonnie++, dd and vmstat where installed, for real outputs).
 */

/** bonnie++ 1.03 lines (a 2003-class IDE disk; seq/ran stat and delete too fast to time). */
export const BONNIE_103 = [
  'Version 1.03       ------Sequential Output------ --Sequential Input- --Random-',
  '                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--',
  'Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP',
  'ide2003        496M 10386  96 25497  15  9836   8 10064  91 28498  10 202.5   1',
  'ide2003,496M,10386,96,25497,15,9836,8,10064,91,28498,10,202.5,1,16,1043,98,+++++,+++,+++++,+++,1128,98,+++++,+++,3737,96',
  'ide2003,496M,10211,95,24873,14,9702,8,10003,90,28011,10,198.7,1,16,1039,97,+++++,+++,+++++,+++,1117,97,+++++,+++,3702,95',
].join('\n')

/** bonnie++ 1.97: format and version first, latencies at the end, no seeks fields. */
export const BONNIE_197 =
  '1.97,1.97,lab,1,1340223839,4G,,100,97,39548,10,19612,5,510,97,61298,7,170.2,4,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,82470us,1178ms,1301ms,24154us,109ms,523ms,2183us,2078us,2063us,1118us,32us,1067us'

/** bonnie++ 2.00 (format 1.98): seeks and seek_proc_count after the chunk size shift every later field. */
export const BONNIE_198 = [
  'format_version,bonnie_version,name,concurrency,seed,file_size,io_chunk_size,putc,putc_cpu,put_block,put_block_cpu,rewrite,rewrite_cpu,getc,getc_cpu,get_block,get_block_cpu,seeks,seeks_cpu,num_files,max_size,min_size,num_dirs,file_chunk_size,seq_create,seq_create_cpu,seq_stat,seq_stat_cpu,seq_del,seq_del_cpu,ran_create,ran_create_cpu,ran_stat,ran_stat_cpu,ran_del,ran_del_cpu,putc_latency,put_block_latency,rewrite_latency,getc_latency,get_block_latency,seeks_latency,seq_create_latency,seq_stat_latency,seq_del_latency,ran_create_latency,ran_stat_latency,ran_del_latency',
  '1.98,2.00a,lab,1,1796030944,2G,,8192,5,298,49,51234,12,22345,6,396,65,61234,8,250.5,3,16,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,76765us,4495us,7241us,65854us,1977us,64154us,16192us,151us,12123us,16171us,5103us,1s',
].join('\n')

/** FreeBSD 2.2.2 dd on a Quantum Viking, 1997 (published measurement C): 128k and 4k blocks, idle and under a nice -19 loop. */
export const DD_BSD_1997 = [
  '$ dd if=/dev/rsd0 of=/dev/null count=1024 bs=128k',
  '1024+0 records in',
  '1024+0 records out',
  '134217728 bytes transferred in 12.483452 secs (10751652 bytes/sec)',
  '$ dd if=/dev/rsd0 of=/dev/null count=8192 bs=4k',
  '8192+0 records in',
  '8192+0 records out',
  '33554432 bytes transferred in 3.160950 secs (10615301 bytes/sec)',
  '$ nice -19 sh -c "while :; do :; done" & dd if=/dev/rsd0 of=/dev/null count=1024 bs=128k',
  '1024+0 records in',
  '1024+0 records out',
  '134217728 bytes transferred in 97.688060 secs (1373942 bytes/sec)',
].join('\n')

/** The flagship's writer (published measurement A), in GNU dd's forms old and new, one with a comma locale. */
export const DD_GNU_FORMS = [
  '512+0 records in',
  '512+0 records out',
  '536870912 bytes (537 MB, 512 MiB) copied, 21.4748 s, 25.0 MB/s',
  '512+0 records in',
  '512+0 records out',
  '536870912 bytes (537 MB) copied, 21.9 seconds, 24.5 MB/s',
  '512+0 records in',
  '512+0 records out',
  '536870912 bytes (537 MB, 512 MiB) copied, 22,1184 s, 24,3 MB/s',
].join('\n')

/** GNU coreutils 5: the "transferred" form with "seconds". */
export const DD_GNU_OLD = [
  '100+0 records in',
  '100+0 records out',
  '104857600 bytes transferred in 4.194304 seconds (25000000 bytes/sec)',
].join('\n')

/** status=progress: progress lines end with a carriage return; only the final summary is a run. */
export const DD_PROGRESS =
  '262144000 bytes (262 MB, 250 MiB) copied, 10 s, 26.2 MB/s\r' +
  '524288000 bytes (524 MB, 500 MiB) copied, 20 s, 26.2 MB/s\r\n' +
  '512+0 records in\n512+0 records out\n536870912 bytes (537 MB, 512 MiB) copied, 20.5 s, 26.2 MB/s\n'

/** FreeBSD ≥ 12. */
export const DD_FREEBSD_NEW = [
  '1024+0 records in',
  '1024+0 records out',
  '134217728 bytes (134 MB, 128 MiB) transferred 12.483s, 10 MB/s',
].join('\n')

/** lmdd on eMMC, ROW vs CFQ (published measurement B): a 375 MiB write at 23 MB/s and a read at 41 MB/s. */
export const LMDD_2012 = [
  'write: 393.2160 MB in 17.0963 secs, 23.0000 MB/sec',
  'real=9.59 sys=1.20 user=0.01 idle=8.38 stall=87% rd=0 wr=768000 min=40 maj=0 ctx=3100',
  'read: 393.2160 MB in 9.5906 secs, 41.0000 MB/sec',
].join('\n')

/** iozone -i0 -r4096k -s200m -I -e -w and -i1 (published measurement B, CFQ): write 24, read 23 MB/s. */
export const IOZONE_2012 = [
  '\tIozone: Performance Test of File I/O',
  '\t        Version $Revision: 3.397 $',
  '\t\tCompiled for 32 bit mode.',
  '\t\tBuild: linux-arm ',
  '',
  '\tInclude fsync in write timing',
  '\tO_DIRECT feature enabled',
  '\tFile size set to 204800 kB',
  '\tRecord Size 4096 kB',
  '\tCommand line used: iozone -i0 -i1 -r4096k -s200m -I -e -w -f/data/write',
  '\tOutput is in kBytes/sec',
  '\tTime Resolution = 0.000001 seconds.',
  '                                                              random    random     bkwd    record    stride                                    ',
  '              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread',
  '          204800    4096    23438    23900    22461    22890                                                                          ',
  '',
  'iozone test complete.',
].join('\n')

/** iozone -a style rows with random tests and large values (kB/s), to check the column matching. */
export const IOZONE_AUTO = [
  '                                                              random    random     bkwd    record    stride                                    ',
  '              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread',
  '          102400       4   131760   167822   191255   204110    49352   108890                                                                ',
  '          102400    1024  1797630  1854966  1684764  1714470  1559952  1803609                                                                ',
  '           16384       4    55907    68813    43361    42502    34044    64746    33578     61774     30137   235263   233180  3905668  3824589',
  '          102400    1024   385198   389054                     379221   387988                                                                ',
].join('\n')

/** vmstat 1 under anticipatory in 2003 (published measurement A: bi ≈ 26–29 MB/s, bo ≈ 5–9 MB/s), procps 2 columns. */
export const VMSTAT_2003 = [
  '   procs                      memory    swap          io     system         cpu',
  ' r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id',
  ' 1  1  0      0   4120  12004 201320   0   0   812  3410  420   380   2   5  93',
  ' 0  2  0      0   3980  12004 201460   0   0 27648  6144  610   590   1  12  87',
  ' 0  2  0      0   4004  12008 201400   0   0 28416  8192  640   610   1  13  86',
  ' 1  1  0      0   3920  12008 201480   0   0 25600  5376  600   575   0  11  89',
  '   procs                      memory    swap          io     system         cpu',
  ' r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id',
  ' 0  2  0      0   4100  12008 201300   0   0 28672  9216  650   620   1  13  86',
].join('\n')

/** vmstat -t (procps 4). */
export const VMSTAT_T = [
  'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu----- -----timestamp-----',
  ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st                 UTC',
  ' 2  0      0 23902668   4740 106768    0    0  5285 19114  461 1816 53 17 30  1  0 2026-11-30 08:47:20',
  ' 8  0      0 23902668   4740 106768    0    0 18780    48 1456 2959 55 28  9  8  0 2026-11-30 08:47:22',
  ' 1  1      0 23902668   4740 106768    0    0 20480  1024 1400 2900 50 30 10 10  0 2026-11-30 08:47:24',
].join('\n')

/** A KDiskMark report of a SATA SSD (figures of its own, in KDiskMark 3's layout). */
export const KDISKMARK = [
  '                        KDiskMark (3.1.4): https://github.com/JonMagon/KDiskMark',
  '                    Flexible I/O Tester (fio-3.36): https://github.com/axboe/fio',
  '--------------------------------------------------------------------------------',
  '* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]',
  '* KB = 1000 bytes, KiB = 1024 bytes',
  '',
  '[Read]',
  'Sequential   1 MiB (Q=  8, T= 1):   512.000 MB/s [    500.0 IOPS] < 15990.10 us>',
  'Sequential   1 MiB (Q=  1, T= 1):   440.320 MB/s [    430.0 IOPS] <  2320.45 us>',
  '    Random   4 KiB (Q= 32, T= 1):   360.448 MB/s [  88000.0 IOPS] <   362.80 us>',
  '    Random   4 KiB (Q=  1, T= 1):    45.056 MB/s [  11000.0 IOPS] <    90.10 us>',
  '',
  '[Write]',
  'Sequential   1 MiB (Q=  8, T= 1):   460.800 MB/s [    450.0 IOPS] < 17750.00 us>',
  'Sequential   1 MiB (Q=  1, T= 1):   332.800 MB/s [    325.0 IOPS] <  3070.20 us>',
  '    Random   4 KiB (Q= 32, T= 1):   315.392 MB/s [  77000.0 IOPS] <   415.00 us>',
  '    Random   4 KiB (Q=  1, T= 1):    90.112 MB/s [  22000.0 IOPS] <    44.90 us>',
  '',
  '[Mix] Read 70%/Write 30%',
  'Sequential   1 MiB (Q=  8, T= 1):   480.256 MB/s [    469.0 IOPS] < 17020.00 us>',
  '',
  'Profile: Default',
  '   Test: 1 GiB (x5) [Measure: 5 sec / Interval: 5 sec]',
  '   Date: 2026-11-30 09:00:00',
  '     OS: debian 13 [linux 6.12.0-amd64]',
].join('\n')

/** blkparse text: a journal write and a reader's two reads (the format test/formats/blkparse.test.ts uses). */
export const BLKPARSE = `  8,0    3        1     0.000000000   697  Q  WS 223490 + 8 [kjournald]
  8,0    3        2     0.000004379   697  G  WS 223490 + 8 [kjournald]
  8,0    3        4     0.000008000   697  I  WS 223490 + 8 [kjournald]
  8,0    3        5     0.000010000   697  D  WS 223490 + 8 [kjournald]
  8,0    1        1     0.000500000  1234  Q   R 1000 + 256 [cat]
  8,0    1        2     0.000510000  1234  D   R 1000 + 256 [cat]
  8,0    1        3     0.004010000     0  C  WS 223490 + 8 [0]
  8,0    1        4     0.009010000     0  C   R 1000 + 256 [0]
  8,0    1        5     0.010000000  1234  Q   R 1256 + 256 [cat]
  8,0    1        6     0.010010000  1234  D   R 1256 + 256 [cat]
  8,0    1        7     0.013010000     0  C   R 1256 + 256 [0]
CPU0 (8,0):
 Reads Queued:           2,      256KiB	 Writes Queued:           1,        4KiB
`

/** A small fio JSON report (fio 3.33's layout, the fields the importer reads), two jobs. */
export const FIO_MINI = JSON.stringify(
  {
    'fio version': 'fio-3.33',
    timestamp: 1796030944,
    timestamp_ms: 1796030944123,
    jobs: ['reader', 'writer'].map((name, i) => {
      const dir = (bytes: number, ios: number) => ({
        io_bytes: bytes,
        bw_bytes: bytes / 2,
        bw: bytes / 2 / 1024,
        iops: ios / 2,
        runtime: 2000,
        total_ios: ios,
        clat_ns: {
          min: 100000,
          max: 900000,
          mean: 300000,
          stddev: 1000,
          N: ios,
          percentile: { '50.000000': 280000, '90.000000': 500000, '99.000000': 800000, '99.900000': 880000 },
          bins: ios > 0 ? { '100352': ios / 2, '301056': ios / 4, '897024': ios / 4 } : {},
        },
      })
      return {
        jobname: name,
        groupid: 0,
        error: 0,
        elapsed: 2,
        job_runtime: 2000,
        usr_cpu: 1.5,
        sys_cpu: 3.5,
        'job options': { rw: i === 0 ? 'read' : 'write', bs: '4k' },
        read: dir(i === 0 ? 8 << 20 : 0, i === 0 ? 2048 : 0),
        write: dir(i === 1 ? 4 << 20 : 0, i === 1 ? 1024 : 0),
        trim: dir(0, 0),
      }
    }),
    disk_util: [
      { name: 'sda', read_ios: 2048, write_ios: 1024, read_merges: 0, write_merges: 3, util: 97.5 },
    ],
  },
  null,
  2,
)

/** FIO_MINI with fio's submission latency (no percentiles: fio's default) and total latency (lat_percentiles=1). */
export const FIO_STAGES = ((): string => {
  const doc = JSON.parse(FIO_MINI)
  for (const j of doc.jobs)
    for (const d of ['read', 'write', 'trim']) {
      const N = j[d].total_ios
      j[d].slat_ns = { min: 1000, max: 52000, mean: 4000, stddev: 10, N }
      j[d].lat_ns = {
        min: 101000,
        max: 950000,
        mean: 304000,
        stddev: 10,
        N,
        percentile: { '50.000000': 290000, '95.000000': 910000, '99.900000': 940000 },
      }
    }
  return JSON.stringify(doc, null, 2)
})()
