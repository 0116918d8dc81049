// The 8-bit encode edge with and without its table lookups, on a photo's linear values: gathers from the 256 KiB
// word table (as encode8_avx2), the division skipped, no lookup, a gather from a 1 KiB table, scalar byte lookups.
// Build and run: vips copy PHOTO.jpg k.ppm (then drop its comment line to k2.ppm); gcc -O2 encode8-lookups.c -lm -o e && ./e
// Figures: BENCHMARKS.md, twenty-fifth session.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((target("avx2,fma")))
static void run(uint8_t*dst,const float*src,size_t n,const int32_t*words,int mode,const uint8_t*bt){
  const __m256 zero=_mm256_setzero_ps(),one=_mm256_set1_ps(1),half=_mm256_set1_ps(.5f),scale=_mm256_set1_ps(65536);
  __m256i acc=_mm256_setzero_si256();
  for(size_t i=0;i+8<=n;i+=8){const float*p=src+4*i;
    __m256 a0=_mm256_loadu_ps(p),a1=_mm256_loadu_ps(p+8),a2=_mm256_loadu_ps(p+16),a3=_mm256_loadu_ps(p+24);
    __m256 t0=_mm256_unpacklo_ps(a0,a1),t1=_mm256_unpackhi_ps(a0,a1),t2=_mm256_unpacklo_ps(a2,a3),t3=_mm256_unpackhi_ps(a2,a3);
    __m256 alpha=_mm256_shuffle_ps(t1,t3,0xEE);__m256 cov=_mm256_cmp_ps(alpha,zero,_CMP_GT_OQ);
    __m256 c[3]={_mm256_shuffle_ps(t0,t2,0x44),_mm256_shuffle_ps(t0,t2,0xEE),_mm256_shuffle_ps(t1,t3,0x44)};
    for(int k=0;k<3;k++){__m256 v=c[k]; if(mode!=1) v=_mm256_and_ps(_mm256_div_ps(v,alpha),cov);
      v=_mm256_and_ps(v,_mm256_cmp_ps(v,zero,_CMP_GE_OQ));c[k]=_mm256_min_ps(v,one);}
    if(mode==4){int32_t idx[3][8];for(int k=0;k<3;k++)_mm256_storeu_si256((__m256i*)idx[k],_mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c[k],scale),half)));
      uint8_t*d=dst+i*3; for(int j=0;j<8;j++){d[3*j]=bt[idx[0][j]];d[3*j+1]=bt[idx[1][j]];d[3*j+2]=bt[idx[2][j]];} continue;}
    __m256i w=_mm256_setzero_si256();
    for(int k=0;k<3;k++){__m256i code=_mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(c[k],scale),half));
      if(mode==3) code=_mm256_i32gather_epi32((const int*)words,_mm256_srli_epi32(code,8),4); else if(mode!=2) code=_mm256_i32gather_epi32((const int*)words,code,4); else code=_mm256_srli_epi32(code,8);
      w=_mm256_or_si256(w,_mm256_slli_epi32(code,8*k));}
    _mm256_storeu_si256((__m256i*)(dst+i*4),w);
  }
}
int main(){size_t n=20<<20; float*src=aligned_alloc(64,n*16); uint8_t*dst=malloc(n*4); int32_t*words=malloc(65537*4); uint8_t*bt=malloc(65537);
 for(int i=0;i<=65536;i++){words[i]=i>>8;bt[i]=i>>8;} srand(1);
 // photo-like: smooth random walk
 FILE*f=fopen("k2.ppm","rb"); char hdr[64]; int w,h,mx; fscanf(f,"P6 %d %d %d",&w,&h,&mx); fgetc(f); size_t np=(size_t)w*h; uint8_t*pix=malloc(np*3); fread(pix,1,np*3,f); n=np;
 for(size_t i=0;i<n;i++){for(int c=0;c<3;c++){double e=pix[3*i+c]/255.0; src[4*i+c]=(float)(e<=0.04045?e/12.92:pow((e+0.055)/1.055,2.4));} src[4*i+3]=1;}
 for(int mode=0;mode<5;mode++){double best=1e9;for(int r=0;r<5;r++){double t=now();run(dst,src,n,words,mode,bt);t=now()-t;if(t<best)best=t;}
 printf("mode %d: %.1f ms for 20 MP (%.2f ns/px)\n",mode,best*1e3,best*1e9/n);}
}
