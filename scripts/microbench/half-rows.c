// A 13-tap vertical pass over a window of float rows against half-float rows (F16C), and the horizontal pass's
// store of each, 20 MP of RGBA rows on one core. Build and run: gcc -O2 -mf16c half-rows.c -o h && ./h
// Figures: BENCHMARKS.md, twenty-fifth session.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
// vertical pass: out[i] = sum_k w[k]*rows[k][i]
__attribute__((target("avx2,fma")))
static void vf(float*out,float**rows,const float*w,int taps,size_t n){
  for(size_t i=0;i<n;i+=8){__m256 acc=_mm256_mul_ps(_mm256_set1_ps(w[0]),_mm256_loadu_ps(rows[0]+i));
    for(int k=1;k<taps;k++) acc=_mm256_fmadd_ps(_mm256_set1_ps(w[k]),_mm256_loadu_ps(rows[k]+i),acc);
    _mm256_storeu_ps(out+i,acc);}
}
__attribute__((target("avx2,fma,f16c")))
static void vh(float*out,uint16_t**rows,const float*w,int taps,size_t n){
  for(size_t i=0;i<n;i+=8){__m256 acc=_mm256_mul_ps(_mm256_set1_ps(w[0]),_mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(rows[0]+i))));
    for(int k=1;k<taps;k++) acc=_mm256_fmadd_ps(_mm256_set1_ps(w[k]),_mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(rows[k]+i))),acc);
    _mm256_storeu_ps(out+i,acc);}
}
// horizontal pass writes: float store vs half store
__attribute__((target("avx2,fma,f16c")))
static void hstore(void*dst,const float*src,size_t n,int half){
  for(size_t i=0;i<n;i+=8){__m256 v=_mm256_loadu_ps(src+i); v=_mm256_mul_ps(v,_mm256_set1_ps(0.5f));
    if(half) _mm_storeu_si128((__m128i*)((uint16_t*)dst+i),_mm256_cvtps_ph(v,0)); else _mm256_storeu_ps((float*)dst+i,v);}
}
int main(){int W=6028,H=3391,taps=13; size_t n=(size_t)W*4; int ring=taps+12;
  float*rf=aligned_alloc(64,n*4*ring); uint16_t*rh=aligned_alloc(64,n*2*ring); float*out=aligned_alloc(64,n*4); float w[32]; for(int k=0;k<taps;k++)w[k]=1.0f/taps;
  for(size_t i=0;i<n*ring;i++){rf[i]=(i%255)/255.0f; rh[i]=_cvtss_sh(rf[i],0);}
  for(int rep=0;rep<3;rep++){
  double t=now(); for(int y=0;y<H;y++){float*rows[32];for(int k=0;k<taps;k++)rows[k]=rf+((y+k)%ring)*n; vf(out,rows,w,taps,n);} double tf=now()-t;
  t=now(); for(int y=0;y<H;y++){uint16_t*rows[32];for(int k=0;k<taps;k++)rows[k]=rh+((y+k)%ring)*n; vh(out,rows,w,taps,n);} double th=now()-t;
  t=now(); for(int y=0;y<H;y++) hstore(rf+(y%ring)*n,out,n,0); double sf=now()-t;
  t=now(); for(int y=0;y<H;y++) hstore(rh+(y%ring)*n,out,n,1); double sh=now()-t;
  printf("vertical 13 taps: float %.1f ms, half %.1f ms; store: float %.1f ms, half %.1f ms\n",tf*1e3,th*1e3,sf*1e3,sh*1e3);}
}
